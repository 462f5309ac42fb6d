#pragma once
// Rows and columns as every verb returns them, and the one place that renders them
// as an aligned table, CSV (RFC 4180), JSON (array of objects) or GitHub markdown.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/terminal_text.h"  // terminal_safe, used with the renderers
#include "model/table.h"

namespace animdex {

// How a verb or report prints (html: reports only). csv and tsv as the sqlite3 shell and
// sqlite-utils write them (a field holding the separator, a quote or a line break is quoted);
// jsonl: one JSON object a line.
enum class OutputFormat { table, csv, json, markdown, html, tsv, jsonl };

std::optional<OutputFormat> parse_output_format(std::string_view name);
inline constexpr std::string_view kOutputFormatNames = "table, csv, tsv, json, jsonl, markdown, html";

// Text of one cell as the table/csv/markdown outputs show it (NULL is empty; a double is the
// shortest text that reads back to the same double: whoever makes the cell applies the number rule
// of core/number_text.h first, as SQL's stored values and the pose and bake outputs do).
std::string cell_text(const Cell& cell);

// `header` false leaves out the header line of csv and tsv (`--no-header`); other formats need theirs.
void write_table(std::ostream& out, const ResultTable& table, OutputFormat format, bool header = true);

// Text that renders as itself in a GitHub-markdown table cell: one line, '|' and '\' escaped,
// HTML special characters as entities (no tags or autolinks), and '[' ']' escaped so nothing
// becomes a link.
std::string markdown_escape(std::string_view text);

// HTML: text with & < > " as entities, and a <table> (NULL cells empty, numbers right-aligned).
std::string html_escape(const std::string& text);
std::string html_table(const ResultTable& table);

}  // namespace animdex
