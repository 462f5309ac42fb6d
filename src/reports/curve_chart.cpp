#include "reports/curve_chart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <set>

#include "core/number_text.h"
#include "output/result_table.h"

namespace animdex::reports {

namespace {

// Geometry in the chart's own units (the SVG scales to its grid cell): a left and right margin,
// the title, legend rows, then per panel a header line and the plot, then the time labels.
constexpr double kWidth = 360, kMargin = 8, kPlotWidth = kWidth - 2 * kMargin;
constexpr double kTitleY = 14, kLegendTop = 22, kLegendRow = 13;
constexpr double kPanelHeader = 13, kPanelPlot = 54, kPanelGap = 5, kAxisHeight = 14;
constexpr std::array<const char*, kCurvePaletteSize> kPalette = {
    "#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#9c755f", "#d4a017", "#ff7fbf", "#7f7f7f"};

// Chart text is 10 px: about 6 units a character.
std::size_t characters_in(double units) { return static_cast<std::size_t>(units / 6); }

std::string clipped(const std::string& text, std::size_t characters) {
  if (text.size() <= characters) return text;
  std::size_t end = characters - 1;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;  // a UTF-8 boundary
  return text.substr(0, end) + "\u2026";
}

// A coordinate rounded to 0.1: what a chart a few hundred pixels wide can show, in few bytes.
std::string coordinate(double value) {
  std::string text = fmt::format("{:.1f}", value);
  if (text.ends_with(".0")) text.resize(text.size() - 2);
  if (text == "-0") text = "0";
  if (text.starts_with("0.")) text.erase(0, 1);            // ".5": SVG numbers need no leading zero
  else if (text.starts_with("-0.")) text.erase(1, 1);      // "-.5"
  return text;
}

struct Pixel {
  double x, y;
};

Pixel rounded(Pixel p) { return {std::round(p.x * 10) / 10, std::round(p.y * 10) / 10}; }

double distance_to_segment(Pixel p, Pixel a, Pixel b) {
  const double dx = b.x - a.x, dy = b.y - a.y, length = dx * dx + dy * dy;
  const double t = length > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / length, 0.0, 1.0) : 0.0;
  return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

// The vertices a polyline needs: a point within 0.1 px of the straight line between the vertices
// around it adds nothing to the drawing (a constant channel needs two points, not 150). Every
// dropped point is checked against the segment that replaces it, so slow curves keep their bends.
std::vector<Pixel> needed_vertices(const std::vector<Pixel>& points) {
  constexpr double kTolerance = 0.1;
  if (points.size() < 3) return points;
  std::vector<Pixel> out{points.front()}, run;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Pixel p = points[i];
    const bool straight = std::all_of(run.begin(), run.end(), [&](Pixel q) {
      return distance_to_segment(q, out.back(), p) <= kTolerance;
    });
    if (!straight) {
      out.push_back(run.back());
      run.clear();
    }
    run.push_back(p);
  }
  out.push_back(run.back());
  return out;
}

struct Range {
  double low = std::numeric_limits<double>::infinity(), high = -std::numeric_limits<double>::infinity();
  void add(double value) {
    if (!std::isfinite(value)) return;
    low = std::min(low, value);
    high = std::max(high, value);
  }
  bool empty() const { return low > high; }
};

Range value_range(const CurvePanel& panel) {
  Range range;
  for (const auto& line : panel.lines) {
    for (const double value : line.values) range.add(value);
    for (const double value : line.key_values) range.add(value);
  }
  return range;
}

// Maps a time and a value to the panel's pixels; a flat range is drawn across the middle.
struct Scale {
  double start, end, low, high, top;
  Pixel at(double time, double value) const {
    const double x = end > start ? kMargin + (time - start) / (end - start) * kPlotWidth : kMargin + kPlotWidth / 2;
    const double y = high > low ? top + 2 + (high - value) / (high - low) * (kPanelPlot - 4) : top + kPanelPlot / 2;
    return {x, y};
  }
};

// A line's colour as a class of the page's style (curve_chart_style), a few bytes per line.
std::string colour_class(std::size_t colour) {
  return fmt::format("c{}{}", colour % kCurvePaletteSize, colour >= kCurvePaletteSize ? " d" : "");
}

std::string polyline(const CurveLine& line, const Scale& scale) {
  std::vector<Pixel> points;
  for (std::size_t i = 0; i < line.times.size() && i < line.values.size(); ++i)
    if (std::isfinite(line.times[i]) && std::isfinite(line.values[i]))
      points.push_back(rounded(scale.at(line.times[i], line.values[i])));
  std::vector<Pixel> distinct;
  for (const Pixel p : points)
    if (distinct.empty() || distinct.back().x != p.x || distinct.back().y != p.y) distinct.push_back(p);
  std::string text;
  for (const Pixel p : needed_vertices(distinct)) text += fmt::format("{}{},{}", text.empty() ? "" : " ", coordinate(p.x), coordinate(p.y));
  return fmt::format("<polyline class=\"mark {}\" points=\"{}\"><title>{}</title></polyline>\n", colour_class(line.colour),
                     text, html_escape(line.label));
}

// Keys as dots: zero-length subpaths drawn with round caps, each a relative move from the one
// before, about ten bytes a key. Keys closer than `spacing` to the last dot share it.
std::string key_dots(const CurveLine& line, const Scale& scale, double spacing) {
  if (spacing < 0) return "";
  std::set<std::pair<double, double>> seen;
  std::string path;
  std::optional<Pixel> last;
  for (std::size_t i = 0; i < line.key_times.size() && i < line.key_values.size(); ++i) {
    if (!std::isfinite(line.key_times[i]) || !std::isfinite(line.key_values[i])) continue;
    const Pixel p = rounded(scale.at(line.key_times[i], line.key_values[i]));
    if (!seen.insert({p.x, p.y}).second) continue;
    if (last && spacing > 0 && std::hypot(p.x - last->x, p.y - last->y) < spacing) continue;
    path += last ? fmt::format("m{} {}h0", coordinate(p.x - last->x), coordinate(p.y - last->y))
                 : fmt::format("M{} {}h0", coordinate(p.x), coordinate(p.y));
    last = p;
  }
  if (path.empty()) return "";
  return fmt::format("<path class=\"keys c{}\" d=\"{}\"/>\n", line.colour % kCurvePaletteSize, path);
}

std::string value_text(double value) { return number_text(as_computed(value)); }

std::string panel_svg(const CurvePanel& panel, const CurveChart& chart, double top) {
  const Range range = value_range(panel);
  const double plot_top = top + kPanelHeader;
  std::string header = panel.name.empty() ? "" : panel.name + ": ";
  header += range.empty() ? "no values"
                          : range.low == range.high ? "constant " + value_text(range.low)
                                                    : value_text(range.low) + " to " + value_text(range.high);
  std::string out = fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", kMargin, coordinate(top + 10),
                                html_escape(clipped(header, characters_in(kPlotWidth))));
  out += fmt::format("<rect class=\"panel\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", kMargin,
                     coordinate(plot_top), kPlotWidth, kPanelPlot);
  // A range within float32 noise of one value (a decomposed scale of 0.99999995 to 1.0000001) is
  // drawn flat, not magnified into a zigzag; the header still gives it exactly.
  const bool noise = range.high - range.low <= 1e-6 * std::max({1.0, std::abs(range.low), std::abs(range.high)});
  const Scale scale{chart.start, chart.end, range.low, noise ? range.low : range.high, plot_top};
  if (!range.empty() && range.low < 0 && range.high > 0) {
    const double zero = rounded(scale.at(chart.start, 0)).y;
    out += fmt::format("<line class=\"zero\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", kMargin, coordinate(zero),
                       kMargin + kPlotWidth, coordinate(zero));
  }
  for (const auto& line : panel.lines) out += polyline(line, scale);
  for (const auto& line : panel.lines) out += key_dots(line, scale, chart.key_spacing);
  return out;
}

// Each distinct label once, with its line's colour; rows wrap at the chart's width.
std::string legend_svg(const CurveChart& chart, double& bottom) {
  std::vector<std::pair<std::string, std::size_t>> entries;
  for (const auto& panel : chart.panels)
    for (const auto& line : panel.lines)
      if (std::none_of(entries.begin(), entries.end(), [&](const auto& entry) { return entry.first == line.label; }))
        entries.emplace_back(line.label, line.colour);
  std::string out = "<g class=\"legend\">";
  double x = kMargin, y = kLegendTop;
  for (const auto& [label, colour] : entries) {
    const std::string shown = clipped(label, 24);
    const double width = 18 + 6.0 * static_cast<double>(shown.size()) + 10;
    if (x > kMargin && x + width > kWidth - kMargin) {
      x = kMargin;
      y += kLegendRow;
    }
    out += fmt::format("<line class=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>",
                       colour_class(colour), coordinate(x), coordinate(y + 5), coordinate(x + 14), coordinate(y + 5),
                       coordinate(x + 18), coordinate(y + 9), html_escape(shown));
    x += width;
  }
  bottom = y + kLegendRow;
  return out + "</g>\n";
}

}  // namespace

std::string curve_colour(std::size_t index) { return kPalette[index % kCurvePaletteSize]; }

std::string curve_chart_style() {
  std::string style =
      ".curves{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:8px 12px;margin:8px 0 16px}\n"
      ".curves svg.chart{width:100%;height:auto;margin:0}\n"
      "svg.curve polyline,svg.curve path.keys{fill:none}svg.curve polyline{stroke-width:1.5}"
      "svg.curve path.keys{stroke-width:3.5;stroke-linecap:round}svg.curve .legend line{stroke-width:2}"
      "svg.curve .d{stroke-dasharray:5 2}svg.curve rect.panel{fill:#f6f8fb;stroke:#dde3ea}"
      "svg.curve line.zero{stroke:#b8c2cf;stroke-dasharray:2 2}\n";
  for (std::size_t c = 0; c < kCurvePaletteSize; ++c) style += fmt::format("svg.curve .c{}{{stroke:{}}}", c, kPalette[c]);
  return style + "\n";
}

std::string svg_curve_chart(const CurveChart& chart) {
  double top = 0;
  const std::string legend = legend_svg(chart, top);
  std::string body;
  std::size_t lines = 0;
  for (const auto& panel : chart.panels) {
    body += panel_svg(panel, chart, top);
    top += kPanelHeader + kPanelPlot + kPanelGap;
    lines += panel.lines.size();
  }
  // The time range's ends under the panels, and what the axis counts between them, or on a line of
  // its own where the ends' labels leave it no room (about 6 units a character).
  const double axis_y = top + 9;
  const double half_note = 3.0 * static_cast<double>(chart.axis_note.size()) + 6;
  const bool note_fits = kMargin + 6.0 * static_cast<double>(chart.start_label.size()) < kWidth / 2 - half_note &&
                         kWidth - kMargin - 6.0 * static_cast<double>(chart.end_label.size()) > kWidth / 2 + half_note;
  const double note_y = note_fits ? axis_y : axis_y + 12;
  body += fmt::format("<text x=\"{}\" y=\"{}\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>"
                      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                      kMargin, coordinate(axis_y), html_escape(chart.start_label), kWidth - kMargin, coordinate(axis_y),
                      html_escape(chart.end_label), kWidth / 2, coordinate(note_y), html_escape(chart.axis_note));
  const int height = static_cast<int>(std::ceil(top + kAxisHeight + (note_fits ? 0 : 12)));
  return fmt::format("<svg class=\"chart curve\" id=\"{0}\" data-lines=\"{1}\" xmlns=\"http://www.w3.org/2000/svg\" "
                     "width=\"{2}\" height=\"{3}\" viewBox=\"0 0 {2} {3}\" role=\"img\" aria-label=\"{4}\">\n"
                     "<text x=\"{5}\" y=\"{6}\" font-weight=\"bold\">{7}</text>\n{8}{9}</svg>\n",
                     html_escape(chart.id), lines, kWidth, height, html_escape(chart.title), kMargin, kTitleY,
                     html_escape(clipped(chart.title, characters_in(kPlotWidth))), legend, body);
}

}  // namespace animdex::reports
