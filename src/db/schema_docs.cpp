#include "db/schema_docs.h"

#include <fmt/format.h>
#include <stdexcept>

#include "core/embedded.h"
#include "db/database.h"
#include "core/text.h"
#include "detect/registry_table.h"

namespace animdex {

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start <= text.size();) {
    const auto end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool is_comment(std::string_view line) { return trim_blanks(line).starts_with("--"); }

// "-- text" -> "text"; "--" -> "" (a paragraph break).
std::string comment_text(std::string_view line) {
  auto text = trim_blanks(line).substr(2);
  if (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return std::string(trim_blanks(text));
}

void append(std::string& text, const std::string& more, char separator) {
  if (!text.empty()) text += separator;
  text += more;
}

// "CREATE TABLE IF NOT EXISTS name (" / "CREATE VIEW IF NOT EXISTS name AS" / "CREATE VIRTUAL TABLE
// IF NOT EXISTS name USING ...": the name, or "". Views and virtual tables list their columns in
// their comment, as `column NAME: meaning` lines.
std::string created_name(std::string_view line, bool& is_view, bool& is_virtual) {
  for (const auto& [prefix, view] : {std::pair{std::string_view("CREATE TABLE IF NOT EXISTS "), false},
                                     std::pair{std::string_view("CREATE VIEW IF NOT EXISTS "), true},
                                     std::pair{std::string_view("CREATE VIRTUAL TABLE IF NOT EXISTS "), true}})
    if (line.starts_with(prefix)) {
      is_view = view;
      is_virtual = prefix.starts_with("CREATE VIRTUAL");
      const auto rest = line.substr(prefix.size());
      return std::string(rest.substr(0, rest.find_first_of(" (")));
    }
  return "";
}

bool is_constraint(std::string_view word) {
  return word == "PRIMARY" || word == "UNIQUE" || word == "CHECK" || word == "FOREIGN" || word == "CONSTRAINT";
}

// Reads the body of CREATE TABLE from lines[i] (the line after the CREATE) to its closing line.
void read_columns(const std::vector<std::string_view>& lines, std::size_t& i, TableDoc& table) {
  for (; i < lines.size(); ++i) {
    const auto line = trim_blanks(lines[i]);
    if (line.starts_with(")")) return;
    if (line.starts_with("--")) {  // continues the previous column's comment
      if (table.columns.empty()) throw std::logic_error(fmt::format("schema.sql: comment before any column of {}", table.name));
      append(table.columns.back().meaning, comment_text(line), ' ');
      continue;
    }
    const auto dashes = line.find("--");
    const auto code = trim_blanks(line.substr(0, dashes));
    const auto word = code.substr(0, code.find_first_of(" \t,"));
    if (word.empty() || is_constraint(word)) continue;
    table.columns.push_back({std::string(word), dashes == std::string_view::npos ? "" : comment_text(line.substr(dashes))});
  }
  throw std::logic_error(fmt::format("schema.sql: table {} is not closed", table.name));
}

}  // namespace

std::vector<SchemaBlock> parse_schema_docs(std::string_view ddl) {
  std::vector<SchemaBlock> blocks;
  const auto lines = lines_of(ddl);
  std::vector<std::string_view> pending;  // the comment block read last, not yet placed
  const auto flush_free_text = [&] {
    if (pending.empty()) return;
    std::string text;
    for (const auto line : pending) append(text, comment_text(line), '\n');
    blocks.push_back({text, {}});
    pending.clear();
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto line = trim_blanks(lines[i]);
    if (is_comment(line)) {
      pending.push_back(line);
      continue;
    }
    bool is_view = false, is_virtual = false;
    const std::string name = created_name(line, is_view, is_virtual);
    if (name.empty()) {  // a blank line or another statement ends a free comment block
      flush_free_text();
      continue;
    }
    TableDoc table{name, is_view, "", {}, ""};
    for (const auto comment : pending) {
      const std::string text = comment_text(comment);
      if (is_view && text.starts_with("column ")) {
        const auto colon = text.find(':');
        table.columns.push_back({text.substr(7, colon - 7), std::string(trim_blanks(std::string_view(text).substr(colon + 1)))});
      } else {
        append(table.description, text, '\n');
      }
    }
    pending.clear();
    if (!is_virtual) ++i;  // a virtual table is one line: notes may follow it directly
    if (!is_view) read_columns(lines, i, table);
    if (!is_view || is_virtual) {
      for (; i + 1 < lines.size() && is_comment(lines[i + 1]); ++i) append(table.notes, comment_text(lines[i + 1]), '\n');
    }
    blocks.push_back({"", {std::move(table)}});
  }
  flush_free_text();
  return blocks;
}

std::string render_schema_markdown(const std::vector<SchemaBlock>& blocks) {
  std::string page;
  for (const auto& block : blocks) {
    if (!page.empty()) page += '\n';
    if (block.table.empty()) {
      page += block.text + '\n';
      continue;
    }
    const TableDoc& table = block.table.front();
    page += fmt::format("### `{}`\n{}\n\n| column | meaning |\n|---|---|\n", table.name, table.description);
    for (const auto& column : table.columns) page += fmt::format("| `{}` | {} |\n", column.name, column.meaning);
    if (!table.notes.empty()) page += '\n' + table.notes + '\n';
  }
  return page;
}

namespace {

// The values `files.format` and `files.compression` hold, from the registries: a format,
// container or codec added in its folder appears here without an edit to schema.sql.
std::string registries_markdown() {
  std::string page = "\n## Values from the registries\n\n"
                     "`files.format` holds an `animation` or `container` id, `files.compression` a `compression` id "
                     "(or `none`). Generated from the build's registries, as `animdex formats` prints them.\n\n"
                     "| id | kind | description |\n|---|---|---|\n";
  for (const auto& row : registered_kinds().rows) {
    std::string description = std::get<std::string>(row[2]);
    for (std::size_t at = 0; (at = description.find('|', at)) != std::string::npos; at += 2) description.insert(at, "\\");
    page += fmt::format("| `{}` | {} | {} |\n", std::get<std::string>(row[0]), std::get<std::string>(row[1]), description);
  }
  return page;
}

}  // namespace

std::string schema_reference_markdown() {
  const auto ddl = embedded_file("schema/schema.sql");
  if (!ddl) throw std::logic_error("schema/schema.sql is not embedded in this build");
  // Each format's own tables go right after the "## Format tables" section of schema.sql.
  std::vector<SchemaBlock> blocks;
  for (auto& block : parse_schema_docs(*ddl)) {
    const bool format_section = block.table.empty() && block.text.starts_with("## Format tables");
    blocks.push_back(std::move(block));
    if (!format_section) continue;
    for (const auto path : format_table_files())
      for (auto& format_block : parse_schema_docs(*embedded_file(path))) blocks.push_back(std::move(format_block));
  }
  std::string page = render_schema_markdown(blocks);
  constexpr std::string_view kVersionToken = "@SCHEMA_VERSION@";
  if (const auto at = page.find(kVersionToken); at != std::string::npos)
    page.replace(at, kVersionToken.size(), std::to_string(kSchemaVersion));
  return page + registries_markdown();
}

}  // namespace animdex
