#pragma once
// A small SVG line chart of curves over time, for `plot`, the docs' curve pages and the diff:
// stacked panels (one per channel group, each with its own value range, so a rotation in radians is
// not flattened by a translation in hundreds), one polyline per line, its keys marked as dots, a
// colour legend, and the time range under the panels. The caller decimates (curve_decimation.h);
// the chart rounds coordinates to 0.1 px and drops points a straight line already draws.
#include <cstddef>
#include <string>
#include <vector>

namespace animdex::reports {

struct CurveLine {
  std::string label;   // in the legend and the tooltip: "T.x", "before"
  std::size_t colour = 0;  // index into the palette (curve_colour); past its end, dashed
  std::vector<double> times, values;          // the line, in time order
  std::vector<double> key_times, key_values;  // marked with a dot each
};

struct CurvePanel {
  std::string name;  // "T", "R", or a channel's own name
  std::vector<CurveLine> lines;
};

struct CurveChart {
  std::string id, title;
  double start = 0, end = 0;             // the time range drawn
  std::string start_label, end_label;    // under the panels' left and right ends: "0 s, frame 0"
  std::string axis_note;                 // under their middle: "seconds (frames at 60 per second)"
  std::vector<CurvePanel> panels;
  // Keys closer than this (in the chart's units, 344 across) share a dot; negative: no dots. A page
  // of thousands of curves thins its dots to stay small (curve_page.h says so on the page).
  double key_spacing = 0;
};

// Colours that stay apart from each other on white, in the order channels get them.
inline constexpr std::size_t kCurvePaletteSize = 10;
std::string curve_colour(std::size_t index);

// The CSS the charts draw with (colours as classes c0..c9, dashed past the palette: d), which every
// report page carries (html.h), and the grid that holds the charts.
std::string curve_chart_style();

// `<svg class="chart curve" data-lines="N">`: the page's check script counts its polylines.
std::string svg_curve_chart(const CurveChart& chart);

// Charts go in <div class="curves">, a grid that fills a 1400 px window in columns and shrinks with it.
inline constexpr const char* kCurveGridOpen = "<div class=\"curves\">\n";

}  // namespace animdex::reports
