#include "reports/player_page.h"

#include <cctype>

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

std::string player_page_html(const PlayerPage& page, const PlayerScripts& scripts) {
  nlohmann::json animations = nlohmann::json::array();
  for (const auto& animation : page.animations)
    animations.push_back({{"name", animation.name},
                          {"fps", animation.fps},
                          {"first", animation.first_time},
                          {"frames", animation.frames}});
  const nlohmann::json data{{"glb", page.glb_base64}, {"animations", animations}, {"joints", page.joint_names}};
  std::string notes;
  for (const auto& note : page.notes) notes += "<li>" + html_escape(note) + "</li>";
  std::string back;
  if (!page.back_link.empty()) back += fmt::format("<a href=\"{}\">Back</a>", html_escape(page.back_link));
  if (!page.next_link.empty())
    back += fmt::format("{}<a href=\"{}\">The file's next animations</a>", back.empty() ? "" : " | ",
                        html_escape(page.next_link));
  if (!back.empty()) back = "<p class=\"notes\">" + back + "</p>\n";
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">{0}<title>{1} - animdex player</title>"
      "<style>{2}</style></head><body>\n{3}<h1>{1}</h1>\n"
      "<div id=\"bar\"><button id=\"play\" type=\"button\">Play</button><label>Animation "
      "<select id=\"animation\"></select></label><input id=\"frame\" type=\"range\" min=\"0\" max=\"0\" value=\"0\" "
      "aria-label=\"frame\"><span id=\"clock\"></span></div>\n<p id=\"error\" hidden></p><div id=\"view\"></div>"
      "<div id=\"tip\" hidden></div>\n<p class=\"notes\">Drag to orbit, scroll to zoom, hover a joint for its name. "
      "The address keeps the animation and frame (#anim=NAME&amp;frame=N).</p><ul class=\"notes\">{4}</ul>\n"
      "{5}{6}{7}<script>const ANIMDEX_PLAYER = {8};</script>\n<script>{9}</script>\n</body></html>\n",
      kPlayerGenerator, html_escape(page.title), kStyle, back, notes, script(scripts, scripts.three),
      script(scripts, scripts.gltf_loader), script(scripts, scripts.orbit_controls), script_json(data),
      embedded_file("src/reports/player/player.js").value());
}

std::string player_link(std::string_view page, std::string_view animation) {
  std::string link = std::string(page) + "#anim=";
  for (const unsigned char c : animation) {
    if (std::isalnum(c) || std::string_view("-_.~").find(static_cast<char>(c)) != std::string_view::npos)
      link += static_cast<char>(c);
    else
      link += fmt::format("%{:02X}", c);
  }
  return link;
}

namespace {

std::string key_of(const std::string& slot, const std::string& name) { return slot.empty() ? "name:" + name : "slot:" + slot; }

}  // namespace

void PlayerAddresses::add(const PlayerPage& page, const std::string& href) {
  for (const auto& animation : page.animations)
    by_key_.emplace(key_of(animation.slot, animation.source_name), player_link(href, animation.name));
}

std::string PlayerAddresses::of(const AnimationCurves& curves) const {
  const auto found = by_key_.find(key_of(curves.slot, curves.animation));
  return found == by_key_.end() ? "" : found->second;
}

}  // namespace animdex::reports
