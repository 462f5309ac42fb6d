#pragma once
// Self-contained HTML for the reports: inline CSS, tables from ResultTable, SVG charts, and a tiny
// inline script that checks the charts rendered (the browser test reads its verdict). No network.
#include <string>
#include <vector>

#include "output/result_table.h"

namespace animdex::reports {

// html_escape and html_table: output/result_table.h.

// A heatmap: one row per `row_labels`, one column per `column_labels`, cell = values[row][column];
// darker means more. Cells with 0 stay empty.
std::string svg_heatmap(const std::string& id, const std::string& title, const std::vector<std::string>& row_labels,
                        const std::vector<std::string>& column_labels, const std::vector<std::vector<double>>& values);

// A horizontal bar chart, one bar per label.
std::string svg_bar_chart(const std::string& id, const std::string& title, const std::vector<std::string>& labels,
                          const std::vector<double>& values, const std::string& unit);

// A whole page: title, a navigation list of (anchor, text), and the body.
std::string html_page(const std::string& title, const std::vector<std::pair<std::string, std::string>>& navigation,
                      const std::string& body);

}  // namespace animdex::reports
