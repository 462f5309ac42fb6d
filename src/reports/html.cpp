#include "reports/html.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/number_text.h"
#include "reports/curve_chart.h"

namespace animdex::reports {

namespace {

// Cells wrap at spaces and after each '/' of a path (a <wbr>), words stay whole, and charts shrink
// with the window, so a page does not scroll sideways at 1400 px; list cells show one item per line.
constexpr const char* kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#fafbfc}
header{background:#24324a;color:#fff;padding:16px 28px}header h1{margin:0;font-size:22px}
nav{padding:8px 28px;background:#e8edf4;font-size:14px}nav a{margin-right:14px;color:#24324a}
main{padding:12px 28px 40px}h2{border-bottom:2px solid #24324a;padding-bottom:4px;margin-top:36px}
h3{margin-top:24px}table{border-collapse:collapse;margin:8px 0 16px;font-size:13px;background:#fff;max-width:100%}
th,td{border:1px solid #cfd6e0;padding:3px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word}
th{background:#eef2f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
td.list{font-size:12px}tr:nth-child(even) td{background:#f6f8fb}p.note{color:#4a5568;font-size:13px}
svg.chart{background:#fff;border:1px solid #cfd6e0;margin:8px 0 16px;max-width:100%;height:auto}
svg.chart text{font-size:10px;fill:#1d2330}
)";

// Checks that every chart drew its marks (bars, cells, lines) and has a size -- a curve chart
// all the lines it declares (data-lines) --, counts the colour legends and the key markers, and
// measures how far the page would scroll sideways; the browser test reads the verdict from <body>.
constexpr const char* kCheckScript = R"(
(function(){var charts=document.querySelectorAll('svg.chart');var ok=0;
charts.forEach(function(svg){var box=svg.getBBox();var marks=svg.querySelectorAll('.mark').length;
var lines=svg.getAttribute('data-lines');
if(box.width>0&&box.height>0&&marks>0&&(lines===null||svg.querySelectorAll('polyline.mark').length===Number(lines))){ok++;}});
var page=document.documentElement;
document.body.setAttribute('data-charts',String(charts.length));
document.body.setAttribute('data-charts-ok',String(ok));
document.body.setAttribute('data-legends',String(document.querySelectorAll('svg.chart .legend').length));
document.body.setAttribute('data-keys',String(document.querySelectorAll('svg.chart path.keys').length));
document.body.setAttribute('data-viewport',String(page.clientWidth));
document.body.setAttribute('data-overflow-x',String(Math.max(0,page.scrollWidth-page.clientWidth)));})();
)";

std::string color_for(double fraction) {
  // From a pale blue to a deep blue.
  const auto mix = [&](int from, int to) { return static_cast<int>(std::lround(from + (to - from) * fraction)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(0xdc, 0x0b), mix(0xe9, 0x3d), mix(0xf7, 0x91));
}

constexpr const char* kEmptyCell = "#f3f5f8";
constexpr const char* kBarColour = "#2f6fb3";

// Chart text is 10 px: about this many characters fit a margin of `pixels`.
std::size_t characters_in(int pixels) { return static_cast<std::size_t>(pixels / 6); }

// The end of `label` when it is too long (paths differ at their end), cut on a UTF-8 boundary.
std::string shortened(const std::string& label, std::size_t characters) {
  if (label.size() <= characters) return label;
  std::size_t start = label.size() - (characters - 1);
  while (start < label.size() && (static_cast<unsigned char>(label[start]) & 0xC0) == 0x80) ++start;
  return "\u2026" + label.substr(start);
}

// A label drawn shortened, with the whole label as its tooltip when it had to be shortened.
std::string label_text(const std::string& attributes, const std::string& label, std::size_t characters) {
  const std::string shown = shortened(label, characters);
  const std::string tooltip = shown == label ? "" : "<title>" + html_escape(label) + "</title>";
  return fmt::format("<text {}>{}{}</text>\n", attributes, tooltip, html_escape(shown));
}

std::string svg_open(const std::string& id, const std::string& title, int width, int height) {
  return fmt::format("<svg class=\"chart\" id=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
                     "viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">\n"
                     "<text x=\"4\" y=\"14\" font-weight=\"bold\">{}</text>\n",
                     html_escape(id), width, height, width, height, html_escape(title), html_escape(title));
}

// The colour scale of a heatmap: an empty swatch, then up to five shades with the value each stands for.
std::string heatmap_legend(double highest, const std::string& unit, int y) {
  std::string out = fmt::format("<g class=\"legend\"><text x=\"4\" y=\"{}\">{} per cell:</text>\n", y + 10,
                                html_escape(unit));
  int x = 4 + static_cast<int>(unit.size() + 11) * 6;
  const auto swatch = [&](const std::string& fill, const std::string& text) {
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"11\" height=\"11\" fill=\"{}\" stroke=\"#cfd6e0\"/>"
                       "<text x=\"{}\" y=\"{}\">{}</text>\n",
                       x, y, fill, x + 14, y + 10, html_escape(text));
    x += 14 + static_cast<int>(text.size()) * 6 + 10;
  };
  swatch(kEmptyCell, "0");
  double previous = 0;
  for (int step = 1; step <= 5; ++step) {
    const double value = std::max(1.0, std::round(highest * step / 5));
    if (value <= previous) continue;  // few distinct values: no repeated swatches
    previous = value;
    swatch(color_for(highest > 0 ? value / highest : 0), number_text(value));
  }
  return out + "</g>\n";
}

// Text for a table cell: escaped, with a line-break opportunity after each '/' of a long text, so a
// path wraps at its folders instead of widening the table (short ones need none: bytes saved).
std::string cell_html(const std::string& text) {
  if (text.size() <= 32) return html_escape(text);
  std::string out;
  for (const char c : html_escape(text)) {
    out += c;
    if (c == '/') out += "<wbr>";
  }
  return out;
}

// A column name may break after each '_' ("animation_<wbr>count"): narrow number columns stay narrow.
std::string header_html(const std::string& column) {
  std::string out;
  for (const char c : html_escape(column)) {
    out += c;
    if (c == '_') out += "<wbr>";
  }
  return out;
}

const ListCell* list_at(const std::vector<std::map<std::size_t, ListCell>>& lists, std::size_t row, std::size_t column) {
  if (row >= lists.size()) return nullptr;
  const auto found = lists[row].find(column);
  return found == lists[row].end() ? nullptr : &found->second;
}

}  // namespace

std::string report_table_html(const ResultTable& table, const std::vector<std::map<std::size_t, ListCell>>& lists) {
  std::string out = "<table>\n<tr>";
  for (const auto& column : table.columns) out += "<th>" + header_html(column) + "</th>";
  out += "</tr>\n";
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    out += "<tr>";
    for (std::size_t c = 0; c < table.rows[r].size(); ++c) {
      if (const ListCell* list = list_at(lists, r, c)) {
        std::string items;
        for (const auto& item : list->items) items += (items.empty() ? "" : "<br>") + cell_html(item);
        out += "<td class=\"list\">" + items + "</td>";
        continue;
      }
      const Cell& cell = table.rows[r][c];
      const bool number = std::holds_alternative<std::int64_t>(cell) || std::holds_alternative<double>(cell);
      out += number ? "<td class=\"num\">" + html_escape(cell_text(cell)) + "</td>"
                    : "<td>" + cell_html(cell_text(cell)) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

namespace {

// Heatmap geometry: room above the grid for the title, the legend and the column labels drawn at
// 60 degrees, and a left margin for the row labels.
constexpr int kCell = 12, kGridLeft = 210, kGridTop = 104, kHeatmapLegendY = 24;

int grid_x(std::size_t column) { return kGridLeft + kCell * static_cast<int>(column); }
int grid_y(std::size_t row) { return kGridTop + kCell * static_cast<int>(row); }

const std::string& column_title(const Heatmap& heatmap, std::size_t column) {
  return column < heatmap.column_titles.size() ? heatmap.column_titles[column] : heatmap.column_labels[column];
}

double cell_value(const Heatmap& heatmap, std::size_t row, std::size_t column) {
  return row < heatmap.values.size() && column < heatmap.values[row].size() ? heatmap.values[row][column] : 0;
}

// One row: its label (shortened, whole in the tooltip) and its non-empty cells, each naming the owner.
std::string heatmap_row(const Heatmap& heatmap, std::size_t row, double highest) {
  const auto& owner = heatmap.row_labels[row];
  std::string out = label_text(fmt::format("x=\"{}\" y=\"{}\" text-anchor=\"end\"", kGridLeft - 4, grid_y(row) + kCell - 2),
                               owner, characters_in(kGridLeft - 8));
  for (std::size_t column = 0; column < heatmap.column_labels.size(); ++column) {
    const double value = cell_value(heatmap, row, column);
    if (value <= 0) continue;  // drawn by the empty-cell pattern
    out += fmt::format("<rect class=\"mark\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">"
                       "<title>{}: {}, {} {}</title></rect>\n",
                       grid_x(column), grid_y(row), kCell - 1, kCell - 1, color_for(value / highest),
                       html_escape(owner), html_escape(column_title(heatmap, column)), number_text(value),
                       html_escape(heatmap.unit));
  }
  return out;
}

}  // namespace

std::string svg_heatmap(const Heatmap& heatmap) {
  double highest = 0;
  for (const auto& row : heatmap.values)
    for (double value : row) highest = std::max(highest, value);
  const std::size_t columns = heatmap.column_labels.size(), rows = heatmap.row_labels.size();
  const int width = std::max(grid_x(columns) + 20, 560);  // the title and legend fit
  std::string out = svg_open(heatmap.id, heatmap.title, width, grid_y(rows) + 20);
  out += heatmap_legend(highest, heatmap.unit, kHeatmapLegendY);
  // Empty cells are one patterned rectangle, not a rectangle each: most of a large heatmap is empty.
  out += fmt::format("<defs><pattern id=\"{0}\" width=\"{1}\" height=\"{1}\" patternUnits=\"userSpaceOnUse\" x=\"{2}\" "
                     "y=\"{3}\"><rect width=\"{4}\" height=\"{4}\" fill=\"{5}\"/></pattern></defs>\n"
                     "<rect x=\"{2}\" y=\"{3}\" width=\"{6}\" height=\"{7}\" fill=\"url(#{0})\"/>\n",
                     html_escape(heatmap.id + "-empty"), kCell, kGridLeft, kGridTop, kCell - 1, kEmptyCell,
                     kCell * static_cast<int>(columns), kCell * static_cast<int>(rows));
  for (std::size_t column = 0; column < columns; ++column)
    out += fmt::format("<text transform=\"translate({},{}) rotate(-60)\"><title>{}</title>{}</text>\n",
                       grid_x(column) + kCell / 2 + 3, kGridTop - 4, html_escape(column_title(heatmap, column)),
                       html_escape(heatmap.column_labels[column]));
  for (std::size_t row = 0; row < rows; ++row) out += heatmap_row(heatmap, row, highest);
  return out + "</svg>\n";
}

std::string svg_bar_chart(const BarChart& chart) {
  constexpr int kBar = 16, kLeft = 220, kTop = 44, kLength = 420, kLegendY = 22;
  double highest = 0;
  for (double value : chart.values) highest = std::max(highest, value);
  const int width = kLeft + kLength + 60;
  const int height = kTop + (kBar + 4) * static_cast<int>(chart.labels.size()) + 10;
  std::string out = svg_open(chart.id, chart.title, width, height);
  out += fmt::format("<g class=\"legend\"><rect x=\"4\" y=\"{}\" width=\"11\" height=\"11\" fill=\"{}\"/>"
                     "<text x=\"20\" y=\"{}\">{}</text></g>\n",
                     kLegendY, kBarColour, kLegendY + 10, html_escape(chart.unit.empty() ? "count" : chart.unit));
  const std::size_t label_characters = characters_in(kLeft - 10);
  for (std::size_t i = 0; i < chart.labels.size(); ++i) {
    const int y = kTop + (kBar + 4) * static_cast<int>(i);
    const double value = i < chart.values.size() ? chart.values[i] : 0;
    const int length = highest > 0 ? std::max(1, static_cast<int>(std::lround(kLength * value / highest))) : 1;
    const std::string tooltip = i < chart.tooltips.size() ? chart.tooltips[i] : chart.labels[i];
    out += label_text(fmt::format("x=\"{}\" y=\"{}\" text-anchor=\"end\"", kLeft - 6, y + kBar - 4), chart.labels[i],
                      label_characters);
    out += fmt::format("<rect class=\"mark\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\">"
                       "<title>{}: {} {}</title></rect>\n",
                       kLeft, y, length, kBar, kBarColour, html_escape(tooltip), number_text(value), html_escape(chart.unit));
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", kLeft + length + 4, y + kBar - 4, number_text(value));
  }
  return out + "</svg>\n";
}

std::string html_page(const std::string& title, const std::vector<std::pair<std::string, std::string>>& navigation,
                      const std::string& body) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                    html_escape(title) + "</title>\n<style>" + kStyle + curve_chart_style() + "</style>\n</head>\n<body>\n<header><h1>" +
                    html_escape(title) + "</h1></header>\n";
  if (!navigation.empty()) {
    out += "<nav>";
    for (const auto& [anchor, text] : navigation)
      out += "<a href=\"#" + html_escape(anchor) + "\">" + html_escape(text) + "</a>";
    out += "</nav>\n";
  }
  out += "<main>\n" + body + "</main>\n<script>" + kCheckScript + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace animdex::reports
