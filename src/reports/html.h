#pragma once
// Self-contained HTML for the reports: inline CSS, tables from ResultTable, SVG charts, and a tiny
// inline script that checks the charts rendered (the browser test reads its verdict). No network.
// Pages are laid out to fit 1400 px without scrolling sideways: long cells wrap, charts are at most
// that wide and shrink with the window.
#include <map>
#include <string>
#include <vector>

#include "output/result_table.h"
#include "reports/report_format.h"

namespace animdex::reports {

// html_escape: output/result_table.h.

// A table whose long cells wrap; a list cell (Section::lists) shows one item per line.
std::string report_table_html(const ResultTable& table, const std::vector<std::map<std::size_t, ListCell>>& lists = {});

// A heatmap: one row per `row_labels`, one column per `column_labels`, cell = values[row][column];
// darker means more, with a colour legend. Row labels too long for the margin are shortened on the
// chart and shown whole as a tooltip; a cell's tooltip names its row (the owner), its column
// (`column_titles`, else the label) and the value with `unit`. Cells with 0 stay empty.
struct Heatmap {
  std::string id, title, unit;
  std::vector<std::string> row_labels, column_labels, column_titles;
  std::vector<std::vector<double>> values;
};
std::string svg_heatmap(const Heatmap& heatmap);

// A horizontal bar chart with a colour legend, one bar per label; `tooltips` (when given, one per
// bar) replace the label in the bar's tooltip, e.g. to name the owners behind the bar.
struct BarChart {
  std::string id, title, unit;
  std::vector<std::string> labels, tooltips;
  std::vector<double> values;
};
std::string svg_bar_chart(const BarChart& chart);

// A whole page: title, a navigation list of (anchor, text), and the body.
std::string html_page(const std::string& title, const std::vector<std::pair<std::string, std::string>>& navigation,
                      const std::string& body);

}  // namespace animdex::reports
