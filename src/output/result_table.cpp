#include "output/result_table.h"

#include "core/terminal_text.h"
#include "output/json_text.h"

#include "output/json_rows.h"

#include "core/number_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace animdex {

namespace {

std::size_t display_width(std::string_view text) {
  // Count UTF-8 code points, not bytes, so names with accents still line up.
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string one_line(std::string text) { return terminal_safe(text); }

void write_aligned(std::ostream& out, const ResultTable& table) {
  std::vector<std::size_t> widths;
  for (const auto& column : table.columns) widths.push_back(display_width(column));
  std::vector<std::vector<std::string>> texts;
  for (const auto& row : table.rows) {
    auto& line = texts.emplace_back();
    for (std::size_t c = 0; c < row.size(); ++c) {
      line.push_back(one_line(cell_text(row[c])));
      widths[c] = std::max(widths[c], display_width(line.back()));
    }
  }
  auto write_row = [&](const std::vector<std::string>& cells, const std::vector<Cell>* source) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const bool numeric = source && (std::holds_alternative<std::int64_t>((*source)[c]) ||
                                      std::holds_alternative<double>((*source)[c]));
      const std::string padding(widths[c] - display_width(cells[c]), ' ');
      if (c) out << "  ";
      if (numeric) out << padding << cells[c];
      else out << cells[c] << (c + 1 < cells.size() ? padding : "");
    }
    out << '\n';
  };
  write_row(table.columns, nullptr);
  for (std::size_t c = 0; c < widths.size(); ++c) out << (c ? "  " : "") << std::string(widths[c], '-');
  out << '\n';
  for (std::size_t r = 0; r < texts.size(); ++r) write_row(texts[r], &table.rows[r]);
  out << "(" << table.rows.size() << (table.rows.size() == 1 ? " row)\n" : " rows)\n");
}

std::string separated_field(const std::string& text, char separator) {
  if (text.find_first_of(std::string{separator, '"', '\r', '\n'}) == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

// CSV (RFC 4180: CRLF) or TSV (one line per row, LF, as the sqlite3 shell's tabs mode).
void write_separated(std::ostream& out, const ResultTable& table, char separator, bool header) {
  const char* line_end = separator == ',' ? "\r\n" : "\n";
  auto write_line = [&](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) out << separator;
      out << separated_field(fields[i], separator);
    }
    out << line_end;
  };
  if (header) write_line(table.columns);
  for (const auto& row : table.rows) {
    std::vector<std::string> fields;
    for (const auto& cell : row) fields.push_back(cell_text(cell));
    write_line(fields);
  }
}

void write_json(std::ostream& out, const ResultTable& table) {
  out << json_text(json_rows(table)) << '\n';
}

void write_json_lines(std::ostream& out, const ResultTable& table) {
  for (const auto& row : json_rows(table))
    out << json_text(row, -1) << '\n';
}

std::string markdown_cell(const std::string& text) { return markdown_escape(text); }

void write_markdown(std::ostream& out, const ResultTable& table) {
  out << '|';
  for (const auto& column : table.columns) out << ' ' << markdown_cell(column) << " |";
  out << "\n|";
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    const bool numeric = !table.rows.empty() && (std::holds_alternative<std::int64_t>(table.rows[0][c]) ||
                                                 std::holds_alternative<double>(table.rows[0][c]));
    out << (numeric ? "---:|" : "---|");
  }
  out << '\n';
  for (const auto& row : table.rows) {
    out << '|';
    for (const auto& cell : row) out << ' ' << markdown_cell(cell_text(cell)) << " |";
    out << '\n';
  }
}

}  // namespace

std::string markdown_escape(std::string_view text) {
  std::string escaped;
  for (const char c : terminal_safe(text)) {
    switch (c) {
      case '|': case '\\': case '[': case ']':
        escaped += '\\';
        escaped += c;
        break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '&': escaped += "&amp;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  if (name == "table") return OutputFormat::table;
  if (name == "csv") return OutputFormat::csv;
  if (name == "json") return OutputFormat::json;
  if (name == "markdown" || name == "md") return OutputFormat::markdown;
  if (name == "html") return OutputFormat::html;
  if (name == "tsv") return OutputFormat::tsv;
  if (name == "jsonl") return OutputFormat::jsonl;
  return std::nullopt;
}

std::string cell_text(const Cell& cell) {
  if (std::holds_alternative<std::int64_t>(cell)) return std::to_string(std::get<std::int64_t>(cell));
  if (const auto* real = std::get_if<double>(&cell)) return std::isnan(*real) ? "NaN" : shortest_text(*real);
  if (std::holds_alternative<std::string>(cell)) return std::get<std::string>(cell);
  return {};
}

void write_table(std::ostream& out, const ResultTable& table, OutputFormat format, bool header) {
  switch (format) {
    case OutputFormat::table: write_aligned(out, table); break;
    case OutputFormat::csv: write_separated(out, table, ',', header); break;
    case OutputFormat::tsv: write_separated(out, table, '\t', header); break;
    case OutputFormat::jsonl: write_json_lines(out, table); break;
    case OutputFormat::json: write_json(out, table); break;
    case OutputFormat::markdown: write_markdown(out, table); break;
    case OutputFormat::html: out << html_table(table); break;
  }
}

nlohmann::ordered_json json_cell(const Cell& cell) {
  if (const auto* number = std::get_if<std::int64_t>(&cell)) return *number;
  if (const auto* real = std::get_if<double>(&cell)) return std::isfinite(*real) ? nlohmann::ordered_json(*real) : nullptr;
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  return nullptr;
}

nlohmann::ordered_json json_rows(const ResultTable& table) {
  auto rows = nlohmann::ordered_json::array();
  for (const auto& row : table.rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (std::size_t c = 0; c < row.size(); ++c) object[table.columns[c]] = json_cell(row[c]);
    rows.push_back(std::move(object));
  }
  return rows;
}

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string html_table(const ResultTable& table) {
  std::string out = "<table>\n<tr>";
  for (const auto& column : table.columns) out += "<th>" + html_escape(column) + "</th>";
  out += "</tr>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (const auto& cell : row) {
      const bool number = std::holds_alternative<std::int64_t>(cell) || std::holds_alternative<double>(cell);
      out += number ? "<td class=\"num\">" : "<td>";
      out += html_escape(cell_text(cell)) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace animdex
