#include "reports/player_page.h"

#include <cctype>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/embedded.h"
#include "output/result_table.h"

namespace animdex::reports {

namespace {

// JSON inside a <script>: "</script>" and "<!--" must not appear, so every '<' is written \u003c.
std::string script_json(const nlohmann::json& value) {
  std::string out;
  for (const char c : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
    out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

std::string script(const PlayerScripts& scripts, const std::string& text) {
  return scripts.inlined ? fmt::format("<script>{}</script>\n", text)
                         : fmt::format("<script src=\"{}\"></script>\n", html_escape(text));
}

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:16px;color:#222}
#bar{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
#frame{flex:1;min-width:200px}#view{width:100%;border:1px solid #ccc}
#tip{position:fixed;background:#fff;border:1px solid #999;padding:2px 6px;font-size:13px;pointer-events:none}
#error{color:#b00}.notes{color:#555;font-size:14px})";

}  // namespace

namespace {

nlohmann::json animation_json(const PlayerAnimation& animation) {
  return {{"name", animation.name}, {"fps", animation.fps}, {"first", animation.first_time}, {"frames", animation.frames}};
}

std::string page_html(const std::string& title, const nlohmann::json& data, const std::vector<std::string>& notes,
                      const std::string& links, const PlayerScripts& scripts) {
  std::string items;
  for (const auto& note : notes) items += "<li>" + html_escape(note) + "</li>";
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">{0}<title>{1} - animdex player</title>"
      "<style>{2}</style></head><body>\n{3}<h1>{1}</h1>\n"
      "<div id=\"bar\"><button id=\"play\" type=\"button\">Play</button><label>Animation "
      "<select id=\"animation\"></select></label><input id=\"frame\" type=\"range\" min=\"0\" max=\"0\" value=\"0\" "
      "aria-label=\"frame\"><span id=\"clock\"></span></div>\n<p id=\"error\" hidden></p><div id=\"view\"></div>"
      "<div id=\"tip\" hidden></div>\n<p class=\"notes\">Drag to orbit, scroll to zoom, hover a joint for its name. "
      "The address keeps the animation and frame (#anim=NAME&amp;frame=N).</p><ul class=\"notes\">{4}</ul>\n"
      "{5}{6}{7}<script>const ANIMDEX_PLAYER = {8};</script>\n<script>{9}</script>\n</body></html>\n",
      kPlayerGenerator, html_escape(title), kStyle, links, items, script(scripts, scripts.three),
      script(scripts, scripts.gltf_loader), script(scripts, scripts.orbit_controls), script_json(data),
      embedded_file("src/reports/player/player.js").value());
}

std::string links_html(const std::string& back_link, const std::string& next_link) {
  std::string links;
  if (!back_link.empty()) links += fmt::format("<a href=\"{}\">Back</a>", html_escape(back_link));
  if (!next_link.empty())
    links += fmt::format("{}<a href=\"{}\">The file's next animations</a>", links.empty() ? "" : " | ",
                         html_escape(next_link));
  return links.empty() ? links : "<p class=\"notes\">" + links + "</p>\n";
}

std::string key_of(const std::string& slot, const std::string& name) { return slot.empty() ? "name:" + name : "slot:" + slot; }

std::string key_of(const PlayerAnimation& animation) { return key_of(animation.slot, animation.source_name); }

}  // namespace

std::string player_page_html(const PlayerPage& page, const PlayerScripts& scripts) {
  nlohmann::json animations = nlohmann::json::array();
  for (const auto& animation : page.animations) animations.push_back(animation_json(animation));
  const nlohmann::json data{{"glb", page.glb_base64}, {"animations", animations}, {"joints", page.joint_names}};
  return page_html(page.title, data, page.notes, links_html(page.back_link, page.next_link), scripts);
}

std::vector<ComparedAnimation> compared_animations(const PlayerPage& before, const PlayerPage& after) {
  std::vector<ComparedAnimation> pairs;
  std::map<std::string, std::size_t> by_key;
  for (std::size_t a = 0; a < after.animations.size(); ++a) {
    by_key.emplace(key_of(after.animations[a]), pairs.size());
    pairs.push_back({std::nullopt, a});
  }
  for (std::size_t b = 0; b < before.animations.size(); ++b) {
    const auto [found, added] = by_key.emplace(key_of(before.animations[b]), pairs.size());
    if (added) pairs.push_back({b, std::nullopt});
    else if (!pairs[found->second].before) pairs[found->second].before = b;
  }
  return pairs;
}

std::string compare_page_html(const ComparePage& page, const PlayerScripts& scripts) {
  const PlayerPage* sides[] = {&page.before, &page.after};
  nlohmann::json rigs = nlohmann::json::array();
  for (const auto* side : sides)
    rigs.push_back({{"label", side == &page.before ? "before" : "after"},
                    {"glb", side->glb_base64},
                    {"joints", side->joint_names}});
  nlohmann::json animations = nlohmann::json::array();
  for (const auto& pair : compared_animations(page.before, page.after)) {
    // The slider counts the newer side's frames where it has the animation.
    const auto& shown = pair.after ? page.after.animations[*pair.after] : page.before.animations[*pair.before];
    auto entry = animation_json(shown);
    entry["sides"] = nlohmann::json::array();
    for (const auto& [side, index] : {std::pair{&page.before, pair.before}, std::pair{&page.after, pair.after}}) {
      if (!index) { entry["sides"].push_back(nullptr); continue; }
      auto played = animation_json(side->animations[*index]);
      played["clip"] = *index;
      entry["sides"].push_back(played);
    }
    animations.push_back(entry);
  }
  const nlohmann::json data{{"rigs", rigs}, {"animations", animations}};
  return page_html(page.title, data, page.notes, links_html(page.back_link, ""), scripts);
}

std::string percent_encoded(std::string_view text) {
  std::string encoded;
  for (const unsigned char c : text) {
    if (std::isalnum(c) || std::string_view("-_.~").find(static_cast<char>(c)) != std::string_view::npos)
      encoded += static_cast<char>(c);
    else
      encoded += fmt::format("%{:02X}", c);
  }
  return encoded;
}

std::string player_link(std::string_view page, std::string_view animation) {
  return std::string(page) + "#anim=" + percent_encoded(animation);
}

void PlayerAddresses::add(const PlayerPage& page, const std::string& href) {
  for (const auto& animation : page.animations)
    by_key_.emplace(key_of(animation.slot, animation.source_name), player_link(href, animation.name));
}

std::string PlayerAddresses::of(const AnimationCurves& curves) const {
  const auto found = by_key_.find(key_of(curves.slot, curves.animation));
  return found == by_key_.end() ? "" : found->second;
}

}  // namespace animdex::reports
