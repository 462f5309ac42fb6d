#include "reports/curve_page.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <tuple>

#include "core/number_text.h"
#include "output/result_table.h"
#include "reports/curve_chart.h"
#include "reports/curve_decimation.h"
#include "reports/curve_panels.h"
#include "reports/html.h"

namespace animdex::reports {

namespace {

// A chart's node: file-level channels first, then bones and nodes by number, then IK helpers.
using NodeKey = std::tuple<int, std::int64_t, std::string>;

NodeKey node_key(const ChannelCurve& channel) {
  if (!channel.node) return {0, 0, channel.node_kind};
  return {channel.node_kind == "ik_helper" ? 2 : 1, *channel.node, channel.node_kind};
}

std::size_t index_in(std::vector<std::string>& names, const std::string& name) {
  const auto at = std::find(names.begin(), names.end(), name);
  if (at != names.end()) return static_cast<std::size_t>(at - names.begin());
  names.push_back(name);
  return names.size() - 1;
}

// A frame number: whole when a float32 time puts it within 1e-4 of one (0.65 s at 60 per second is
// frame 39, not 38.9999986).
std::string frame_text(double frame) {
  const double whole = std::round(frame);
  return number_text(std::abs(frame - whole) < 1e-4 ? whole : as_computed(frame));
}

std::string seconds_label(double seconds, double fps) {
  return fmt::format("{} s, frame {}", number_text(as_computed(seconds)), frame_text(seconds * fps));
}

// The time range drawn: the animation's, widened to every key and sample it holds.
std::pair<double, double> time_range(const AnimationCurves& curves) {
  double start = curves.start_seconds, end = curves.end_seconds;
  for (const auto& channel : curves.channels)
    for (const auto* times : {&channel.key_times, &channel.sample_times})
      for (const double t : *times) {
        if (!std::isfinite(t)) continue;
        start = std::min(start, t);
        end = std::max(end, t);
      }
  return {start, end};
}

CurveChart empty_chart(const CurveSection& section, const ChannelCurve& first, std::size_t number) {
  const auto& curves = section.curves;
  const auto [start, end] = time_range(curves);
  CurveChart chart;
  chart.id = fmt::format("{}-c{}", section.anchor, number);
  chart.title = node_title(first, section.node_names);
  chart.start = start;
  chart.end = end;
  if (section.stored_keys) {
    chart.start_label = number_text(as_computed(start));
    chart.end_label = number_text(as_computed(end));
    chart.axis_note = "time as stored";
  } else {
    chart.start_label = seconds_label(start, curves.frames_per_second);
    chart.end_label = seconds_label(end, curves.frames_per_second);
    chart.axis_note = fmt::format("seconds; {} frames/s", number_text(as_computed(curves.frames_per_second)));
  }
  return chart;
}

// How much of each curve a section draws: full detail, then less for a section past its budget.
struct Detail {
  std::size_t samples;
  bool every_key;      // every key is a point of its line
  double key_spacing;  // CurveChart::key_spacing
};

std::vector<Detail> details(const CurvePageOptions& options) {
  return {{options.samples_per_line, true, 0},
          {std::min<std::size_t>(options.samples_per_line, 50), true, 3},
          {std::min<std::size_t>(options.samples_per_line, 24), false, -1}};
}

std::string detail_note(const Detail& detail, std::size_t channels) {
  if (detail.key_spacing == 0) return "";
  if (detail.every_key)
    return fmt::format(" At {} channels the page would be too large: lines keep at most {} samples besides their keys, "
                       "and keys closer than {} px share a dot.",
                       channels, detail.samples, number_text(detail.key_spacing));
  return fmt::format(" At {} channels the page would be too large: each line keeps at most {} points, keys included, "
                     "and keys are not dotted.",
                     channels, detail.samples);
}

CurveLine line_of(const ChannelCurve& channel, std::size_t colour, const Detail& detail) {
  const auto line = decimated(channel.sample_times, channel.sample_values, channel.key_times, channel.key_values,
                              detail.samples, detail.every_key);
  return {channel.channel, colour, line.times, line.values, channel.key_times, channel.key_values};
}

// One chart per node, in node order; channels keep their colour across the section's charts.
std::vector<CurveChart> charts_of(const CurveSection& section, const Detail& detail) {
  const auto& channels = section.curves.channels;
  std::vector<std::size_t> order(channels.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return node_key(channels[a]) < node_key(channels[b]); });
  std::vector<std::string> colours;
  std::vector<CurveChart> charts;
  std::optional<NodeKey> current;
  for (const std::size_t i : order) {
    const auto& channel = channels[i];
    if (!current || *current != node_key(channel)) {
      current = node_key(channel);
      charts.push_back(empty_chart(section, channel, charts.size()));
      charts.back().key_spacing = detail.key_spacing;
    }
    auto& panels = charts.back().panels;
    const std::string name = panel_of(channel.channel);
    auto panel = std::find_if(panels.begin(), panels.end(), [&](const CurvePanel& p) { return p.name == name; });
    if (panel == panels.end()) panel = panels.insert(panels.end(), CurvePanel{name, {}});
    panel->lines.push_back(line_of(channel, index_in(colours, channel.channel), detail));
  }
  for (auto& chart : charts) split_outliers(chart.panels);
  return charts;
}

std::string section_summary(const CurveSection& section, std::size_t charts) {
  const auto& curves = section.curves;
  const auto [start, end] = time_range(curves);
  std::size_t keys = 0;
  for (const auto& channel : curves.channels) keys += channel.key_times.size();
  std::string text = section.note.empty() ? "" : section.note + " ";
  if (curves.channels.empty()) return text + "No animated channel.";
  const auto count = [](std::size_t n, const char* noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); };
  text += fmt::format("{} in {}, {}", count(curves.channels.size(), "channel"), count(charts, "chart"), count(keys, "key"));
  if (section.stored_keys)
    return text + fmt::format(", times {} to {} as the file stores them.", number_text(as_computed(start)),
                              number_text(as_computed(end)));
  return text + fmt::format("; {} to {} s (frames {} to {} at {} per second). Lines are the format's own evaluation, "
                            "dots its keys.",
                            number_text(as_computed(start)), number_text(as_computed(end)),
                            frame_text(start * curves.frames_per_second), frame_text(end * curves.frames_per_second),
                            number_text(as_computed(curves.frames_per_second)));
}

}  // namespace

std::string animation_heading(const AnimationCurves& curves, const std::optional<std::string>& name,
                              const std::string& fallback) {
  std::string heading = curves.slot.empty() ? "" : "slot " + curves.slot;
  if (!curves.animation.empty() && curves.animation != curves.slot)
    heading += (heading.empty() ? "" : ": ") + curves.animation;
  if (name && !name->empty() && *name != curves.animation) heading += heading.empty() ? *name : " (" + *name + ")";
  return heading.empty() ? fallback : heading;
}

std::string node_title(const ChannelCurve& channel, const NodeNames& names) {
  if (!channel.node) return "channels";
  const char* kind = channel.node_kind == "ik_helper" ? "IK helper" : channel.node_kind == "node" ? "node" : "bone";
  std::string title = fmt::format("{} {}", kind, *channel.node);
  const auto found = names.find({channel.node_kind, *channel.node});
  if (found != names.end() && !found->second.empty()) title += " (" + found->second + ")";
  return title;
}

std::string curve_section_html(const CurveSection& section, const CurvePageOptions& options) {
  std::string html;
  for (const auto& detail : details(options)) {
    const auto charts = charts_of(section, detail);
    const std::string player =
        section.player.empty() ? "" : fmt::format(" <a class=\"player\" href=\"{}\">Play it in 3D</a>", html_escape(section.player));
    html = fmt::format("<h2 id=\"{}\">{}</h2>\n<p class=\"note\">{}{}</p>\n", html_escape(section.anchor),
                       html_escape(section.heading),
                       html_escape(section_summary(section, charts.size()) +
                                   detail_note(detail, section.curves.channels.size())),
                       player);
    if (!charts.empty()) {
      html += kCurveGridOpen;
      for (const auto& chart : charts) html += svg_curve_chart(chart);
      html += "</div>\n";
    }
    if (options.section_budget == 0 || html.size() <= options.section_budget) break;
  }
  return html;
}

std::string curve_page(const std::string& title, const std::string& intro, const std::vector<CurveSection>& sections,
                       const CurvePageOptions& options) {
  std::vector<std::pair<std::string, std::string>> navigation;
  if (sections.size() > 1)
    for (const auto& section : sections) navigation.emplace_back(section.anchor, section.heading);
  std::string body = intro.empty() ? "" : "<p class=\"note\">" + html_escape(intro) + "</p>\n";
  for (const auto& section : sections) body += curve_section_html(section, options);
  return html_page(title, navigation, body);
}

}  // namespace animdex::reports
