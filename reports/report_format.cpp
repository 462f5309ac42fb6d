#include "reports/report_format.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <ostream>

#include "output/json_rows.h"
#include "reports/html.h"

namespace animdex::reports {

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool digit_a = std::isdigit(static_cast<unsigned char>(a[i])), digit_b = std::isdigit(static_cast<unsigned char>(b[j]));
    if (digit_a && digit_b) {
      std::size_t end_a = i, end_b = j;
      while (end_a < a.size() && std::isdigit(static_cast<unsigned char>(a[end_a]))) ++end_a;
      while (end_b < b.size() && std::isdigit(static_cast<unsigned char>(b[end_b]))) ++end_b;
      const std::string run_a = a.substr(i, end_a - i), run_b = b.substr(j, end_b - j);
      const std::string trimmed_a = run_a.substr(std::min(run_a.find_first_not_of('0'), run_a.size()));
      const std::string trimmed_b = run_b.substr(std::min(run_b.find_first_not_of('0'), run_b.size()));
      if (trimmed_a.size() != trimmed_b.size()) return trimmed_a.size() < trimmed_b.size();
      if (trimmed_a != trimmed_b) return trimmed_a < trimmed_b;
      i = end_a, j = end_b;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i, ++j;
  }
  return a.size() - i < b.size() - j;
}


void write_sections(std::ostream& out, const std::string& title, const std::vector<Section>& sections,
                    OutputFormat format) {
  switch (format) {
    case OutputFormat::html: {
      std::vector<std::pair<std::string, std::string>> navigation;
      std::string body;
      for (const auto& section : sections) {
        navigation.emplace_back(section.anchor, section.title);
        body += "<h2 id=\"" + html_escape(section.anchor) + "\">" + html_escape(section.title) + "</h2>\n";
        if (!section.note.empty()) body += "<p class=\"note\">" + html_escape(section.note) + "</p>\n";
        body += section.chart;
        body += section.table.rows.empty() ? "<p class=\"note\">None.</p>\n" : html_table(section.table);
      }
      out << html_page(title, navigation, body);
      return;
    }
    case OutputFormat::csv: {
      ResultTable all;
      all.columns.push_back("section");
      // Sections have different columns: the CSV carries the union, in first-seen order.
      for (const auto& section : sections)
        for (const auto& column : section.table.columns)
          if (std::find(all.columns.begin(), all.columns.end(), column) == all.columns.end())
            all.columns.push_back(column);
      for (const auto& section : sections)
        for (const auto& row : section.table.rows) {
          std::vector<Cell> line(all.columns.size());
          line[0] = section.anchor;
          for (std::size_t c = 0; c < section.table.columns.size(); ++c) {
            const auto at = std::find(all.columns.begin(), all.columns.end(), section.table.columns[c]);
            line[static_cast<std::size_t>(at - all.columns.begin())] = row[c];
          }
          all.rows.push_back(std::move(line));
        }
      write_table(out, all, OutputFormat::csv);
      return;
    }
    case OutputFormat::json: {
      nlohmann::ordered_json json = nlohmann::ordered_json::object();
      for (const auto& section : sections) json[section.anchor] = json_rows(section.table);
      out << json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
      return;
    }
    case OutputFormat::markdown:
    case OutputFormat::table: {
      const bool markdown = format == OutputFormat::markdown;
      out << (markdown ? "# " + markdown_escape(title) : terminal_safe(title)) << "\n";
      for (const auto& section : sections) {
        out << "\n" << (markdown ? "## " : "== ") << section.title << "\n\n";
        if (!section.note.empty()) out << section.note << "\n\n";
        if (section.table.rows.empty()) out << "None.\n";
        else write_table(out, section.table, markdown ? OutputFormat::markdown : OutputFormat::table);
      }
      return;
    }
  }
}

}  // namespace animdex::reports
