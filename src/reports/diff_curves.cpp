#include "reports/diff_curves.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "core/number_text.h"
#include "reports/curve_chart.h"

namespace animdex::reports {

namespace {

constexpr std::size_t kBefore = 0, kAfter = 1;  // palette colours: blue, red

using Key = std::array<double, 5>;  // time, x, y, z, w; NaN where the key has no such value

std::vector<Key> stored_keys(SQLite::Database& db, const std::optional<std::int64_t>& track_id) {
  std::vector<Key> keys;
  if (!track_id) return keys;
  SQLite::Statement query(db, "SELECT time, x, y, z, w FROM keyframes WHERE track_id = ? ORDER BY key_index");
  query.bind(1, *track_id);
  while (query.executeStep()) {
    Key key{};
    for (int c = 0; c < 5; ++c)
      key[static_cast<std::size_t>(c)] = query.getColumn(c).isNull() ? NAN : query.getColumn(c).getDouble();
    keys.push_back(key);
  }
  return keys;
}

bool has_component(const std::vector<Key>& keys, std::size_t component) {
  return std::any_of(keys.begin(), keys.end(), [&](const Key& key) { return !std::isnan(key[component]); });
}

// One side's line through its keys for one component; the keys are the line's points.
CurveLine side_line(const std::vector<Key>& keys, std::size_t component, const char* label, std::size_t colour) {
  CurveLine line{label, colour, {}, {}, {}, {}};
  for (const auto& key : keys)
    if (!std::isnan(key[component]) && std::isfinite(key[0])) {
      line.times.push_back(key[0]);
      line.values.push_back(key[component]);
    }
  line.key_times = line.times;
  line.key_values = line.values;
  return line;
}

CurveChart track_chart(const AnimationChange& animation, const TrackChange& track, const std::vector<Key>& before,
                       const std::vector<Key>& after, std::size_t number) {
  CurveChart chart;
  chart.id = fmt::format("track-{}", number);
  chart.title = fmt::format("{} {} \u00b7 {} ({})", animation.owner, animation.animation_key, track.track, track.change);
  double start = std::numeric_limits<double>::infinity(), end = -start;
  for (const auto* keys : {&before, &after})
    for (const auto& key : *keys)
      if (std::isfinite(key[0])) start = std::min(start, key[0]), end = std::max(end, key[0]);
  if (start > end) start = end = 0;
  chart.start = start;
  chart.end = end;
  chart.start_label = number_text(as_computed(start));
  chart.end_label = number_text(as_computed(end));
  chart.axis_note = "time as stored";
  std::vector<std::size_t> components;
  for (std::size_t c = 1; c < 5; ++c)
    if (has_component(before, c) || has_component(after, c)) components.push_back(c);
  for (const std::size_t c : components) {
    CurvePanel panel;
    panel.name = components.size() == 1 ? track.channels : fmt::format("{}.{}", track.channels, "xyzw"[c - 1]);
    if (!before.empty()) panel.lines.push_back(side_line(before, c, "before", kBefore));
    if (!after.empty()) panel.lines.push_back(side_line(after, c, "after", kAfter));
    chart.panels.push_back(std::move(panel));
  }
  return chart;
}

std::size_t track_count(const DiffReport& report) {
  std::size_t count = 0;
  for (const auto& animation : report.animations) count += animation.tracks.size();
  return count;
}

}  // namespace

std::string changed_track_charts(SQLite::Database& from_db, SQLite::Database& to_db, const DiffReport& report,
                                 std::size_t limit) {
  std::string html;
  std::size_t drawn = 0;
  for (const auto& animation : report.animations)
    for (const auto& track : animation.tracks) {
      if (drawn == limit) break;
      const auto chart = track_chart(animation, track, stored_keys(from_db, track.before_track_id),
                                     stored_keys(to_db, track.after_track_id), drawn);
      if (chart.panels.empty()) continue;  // no stored keys on either side (--keyframes none)
      html += svg_curve_chart(chart);
      ++drawn;
    }
  return html.empty() ? html : kCurveGridOpen + html + "</div>\n";
}

void add_changed_track_charts(std::vector<Section>& sections, SQLite::Database& from_db, SQLite::Database& to_db,
                              const DiffReport& report) {
  const auto tracks = std::find_if(sections.begin(), sections.end(), [](const Section& s) { return s.anchor == "tracks"; });
  if (tracks == sections.end()) return;
  constexpr std::size_t kLimit = 300;
  tracks->chart = changed_track_charts(from_db, to_db, report, kLimit);
  if (tracks->chart.empty()) return;
  const std::size_t count = track_count(report);
  tracks->note += fmt::format(
      " Each chart overlays a track before ({}) and after ({}): lines join the keys each dump stores, dots mark "
      "them, times as the files store them (GNT: seconds; KH2, NSBCA, LightWave v1: frames).{}",
      "blue", "red", count > kLimit ? fmt::format(" The first {} of {} tracks are drawn.", kLimit, count) : "");
}

void add_change_players(std::vector<Section>& sections, const std::vector<ChangePlayer>& players,
                        const std::string& note) {
  const auto animations =
      std::find_if(sections.begin(), sections.end(), [](const Section& s) { return s.anchor == "animations"; });
  if (animations == sections.end()) return;
  if (!note.empty()) animations->note += " " + note;
  if (players.empty()) return;
  std::string list;
  for (const auto& [animation, href] : players)
    list += fmt::format("<li><a class=\"player\" href=\"{}\">{} {}{}</a></li>", html_escape(href),
                        html_escape(animation->path), html_escape(animation->animation_key),
                        animation->name ? html_escape(" (" + *animation->name + ")") : "");
  animations->chart += fmt::format("<p>Play the before (blue) and after (red) of a changed animation in 3D, drawn over "
                                   "one another:</p><ul class=\"players\">{}</ul>\n", list);
}

}  // namespace animdex::reports
