// The schema documentation must name every table, view and column the schema creates.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "core/embedded.h"
#include "db/database.h"
#include "db/schema_docs.h"
#include "db/sql_runner.h"
#include "support/test_support.h"

using namespace animdex;

TEST_CASE("schema/README.md documents every table and column", "[schema]") {
  std::ifstream in(std::filesystem::path(ANIMDEX_SOURCE_DIR) / "schema" / "README.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string docs = text.str();

  test::TempDir dir;
  auto db = open_for_writing(dir / "schema.db");
  auto objects = run_read_only_sql(
      db, "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name");
  REQUIRE(objects.rows.size() >= 10);
  for (const auto& row : objects.rows) {
    const auto table = std::get<std::string>(row[0]);
    INFO("table " << table);
    CHECK(docs.find("### `" + table + "`") != std::string::npos);
    const auto section_start = docs.find("### `" + table + "`");
    const auto section_end = docs.find("### `", section_start + 1);
    const std::string section = docs.substr(section_start, section_end - section_start);
    auto columns = run_read_only_sql(db, "SELECT name FROM pragma_table_info(:t)", {{"t", table}});
    for (const auto& column : columns.rows) {
      INFO("column " << std::get<std::string>(column[0]));
      CHECK(section.find("| `" + std::get<std::string>(column[0]) + "` |") != std::string::npos);
    }
  }
}

TEST_CASE("schema/README.md is the page generated from schema.sql", "[schema]") {
  std::ifstream in(std::filesystem::path(ANIMDEX_SOURCE_DIR) / "schema" / "README.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  INFO("regenerate it: ./build/animdex schema > schema/README.md");
  CHECK(text.str() == schema_reference_markdown());
}

TEST_CASE("the schema page gives every column of every table and view a meaning", "[schema]") {
  const auto blocks = parse_schema_docs(schema_ddl());  // schema.sql and every format's own tables
  std::size_t tables = 0;
  for (const auto& block : blocks)
    for (const auto& table : block.table) {
      ++tables;
      INFO(table.name);
      CHECK_FALSE(table.description.empty());
      CHECK_FALSE(table.columns.empty());
      for (const auto& column : table.columns) {
        INFO(column.name);
        CHECK_FALSE(column.meaning.empty());
      }
    }
  CHECK(tables == 34);  // 24 tables, 8 views, 2 virtual tables
}

TEST_CASE("the schema comment grammar: descriptions, continued comments, notes, view columns", "[schema]") {
  const auto blocks = parse_schema_docs(
      "-- # Title\n\n-- A table.\nCREATE TABLE IF NOT EXISTS t (\n  a INTEGER,  -- first\n     -- and more\n"
      "  b TEXT NOT NULL,  -- second\n  PRIMARY KEY (a)\n);\n-- A note.\n\n-- A view.\n-- column v: the value\n"
      "CREATE VIEW IF NOT EXISTS w AS SELECT a AS v FROM t;\n");
  REQUIRE(blocks.size() == 3);
  CHECK(blocks[0].text == "# Title");
  const auto& table = blocks[1].table.at(0);
  CHECK(table.name == "t");
  CHECK(table.description == "A table.");
  REQUIRE(table.columns.size() == 2);
  CHECK(table.columns[0].meaning == "first and more");
  CHECK(table.columns[1].name == "b");
  CHECK(table.notes == "A note.");
  const auto& view = blocks[2].table.at(0);
  CHECK(view.is_view);
  REQUIRE(view.columns.size() == 1);
  CHECK(view.columns[0].name == "v");
  CHECK(render_schema_markdown(blocks) ==
        "# Title\n\n### `t`\nA table.\n\n| column | meaning |\n|---|---|\n| `a` | first and more |\n"
        "| `b` | second |\n\nA note.\n\n### `w`\nA view.\n\n| column | meaning |\n|---|---|\n| `v` | the value |\n");
}
