#pragma once
// The schema's reference page, generated from the DDL: each table and column is declared once,
// in schema/schema.sql, with its comment, and schema/README.md is this page (a test keeps the
// checked-in copy equal to it; `animdex schema` prints it). The comment grammar is described at
// the top of schema.sql.
#include <string>
#include <string_view>
#include <vector>

namespace animdex {

struct ColumnDoc {
  std::string name;
  std::string meaning;
};

struct TableDoc {
  std::string name;
  bool is_view = false;
  std::string description;  // markdown, may span lines
  std::vector<ColumnDoc> columns;
  std::string notes;        // markdown after the column table; may be empty
};

// One piece of the page, in file order: either free text (a section heading, a paragraph) or a table.
struct SchemaBlock {
  std::string text;  // free text when `table` is empty
  std::vector<TableDoc> table;  // zero or one
};

std::vector<SchemaBlock> parse_schema_docs(std::string_view ddl);
std::string render_schema_markdown(const std::vector<SchemaBlock>& blocks);

// The page for this build's embedded schema/schema.sql.
std::string schema_reference_markdown();

}  // namespace animdex
