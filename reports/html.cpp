#include "reports/html.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace animdex::reports {

namespace {

constexpr const char* kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#fafbfc}
header{background:#24324a;color:#fff;padding:16px 28px}header h1{margin:0;font-size:22px}
nav{padding:8px 28px;background:#e8edf4;font-size:14px}nav a{margin-right:14px;color:#24324a}
main{padding:12px 28px 40px}h2{border-bottom:2px solid #24324a;padding-bottom:4px;margin-top:36px}
h3{margin-top:24px}table{border-collapse:collapse;margin:8px 0 16px;font-size:13px;background:#fff}
th,td{border:1px solid #cfd6e0;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eef2f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even) td{background:#f6f8fb}p.note{color:#4a5568;font-size:13px}
svg.chart{background:#fff;border:1px solid #cfd6e0;margin:8px 0 16px}svg.chart text{font-size:10px;fill:#1d2330}
)";

// Checks that every chart drew its marks and has a size; the browser test reads the verdict.
constexpr const char* kCheckScript = R"(
(function(){var charts=document.querySelectorAll('svg.chart');var ok=0;
charts.forEach(function(svg){var box=svg.getBBox();var marks=svg.querySelectorAll('rect.mark').length;
if(box.width>0&&box.height>0&&marks>0){ok++;}});
document.body.setAttribute('data-charts',String(charts.length));
document.body.setAttribute('data-charts-ok',String(ok));})();
)";

std::string color_for(double fraction) {
  // From a pale blue to a deep blue.
  const auto mix = [&](int from, int to) { return static_cast<int>(std::lround(from + (to - from) * fraction)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(0xdc, 0x0b), mix(0xe9, 0x3d), mix(0xf7, 0x91));
}

}  // namespace

std::string svg_heatmap(const std::string& id, const std::string& title, const std::vector<std::string>& row_labels,
                        const std::vector<std::string>& column_labels, const std::vector<std::vector<double>>& values) {
  constexpr int kCell = 12, kLeft = 130, kTop = 56;
  double highest = 0;
  for (const auto& row : values)
    for (double value : row) highest = std::max(highest, value);
  const int width = kLeft + kCell * static_cast<int>(column_labels.size()) + 20;
  const int height = kTop + kCell * static_cast<int>(row_labels.size()) + 20;
  std::string out = fmt::format(
      "<svg class=\"chart\" id=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">\n<text x=\"4\" y=\"14\" font-weight=\"bold\">{}</text>\n",
      id, width, height, width, height, html_escape(title), html_escape(title));
  for (std::size_t c = 0; c < column_labels.size(); ++c)
    out += fmt::format("<text transform=\"translate({},{}) rotate(-60)\">{}</text>\n",
                       kLeft + kCell * static_cast<int>(c) + kCell / 2 + 3, kTop - 4, html_escape(column_labels[c]));
  for (std::size_t r = 0; r < row_labels.size(); ++r) {
    const int y = kTop + kCell * static_cast<int>(r);
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", kLeft - 4, y + kCell - 2,
                       html_escape(row_labels[r]));
    for (std::size_t c = 0; c < column_labels.size(); ++c) {
      const double value = r < values.size() && c < values[r].size() ? values[r][c] : 0;
      const int x = kLeft + kCell * static_cast<int>(c);
      if (value <= 0) {
        out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f3f5f8\"/>\n", x, y, kCell - 1,
                           kCell - 1);
        continue;
      }
      out += fmt::format(
          "<rect class=\"mark\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{} / {}: {}</title></rect>\n",
          x, y, kCell - 1, kCell - 1, color_for(highest > 0 ? value / highest : 0), html_escape(row_labels[r]),
          html_escape(column_labels[c]), value);
    }
  }
  return out + "</svg>\n";
}

std::string svg_bar_chart(const std::string& id, const std::string& title, const std::vector<std::string>& labels,
                          const std::vector<double>& values, const std::string& unit) {
  constexpr int kBar = 16, kLeft = 220, kTop = 26, kLength = 420;
  double highest = 0;
  for (double value : values) highest = std::max(highest, value);
  const int width = kLeft + kLength + 60;
  const int height = kTop + (kBar + 4) * static_cast<int>(labels.size()) + 10;
  std::string out = fmt::format(
      "<svg class=\"chart\" id=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">\n<text x=\"4\" y=\"14\" font-weight=\"bold\">{}</text>\n",
      id, width, height, width, height, html_escape(title), html_escape(title));
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const int y = kTop + (kBar + 4) * static_cast<int>(i);
    const double value = i < values.size() ? values[i] : 0;
    const int length = highest > 0 ? std::max(1, static_cast<int>(std::lround(kLength * value / highest))) : 1;
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", kLeft - 6, y + kBar - 4,
                       html_escape(labels[i]));
    out += fmt::format("<rect class=\"mark\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#2f6fb3\">"
                       "<title>{}: {} {}</title></rect>\n",
                       kLeft, y, length, kBar, html_escape(labels[i]), value, html_escape(unit));
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", kLeft + length + 4, y + kBar - 4, value);
  }
  return out + "</svg>\n";
}

std::string html_page(const std::string& title, const std::vector<std::pair<std::string, std::string>>& navigation,
                      const std::string& body) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                    html_escape(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<header><h1>" +
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
