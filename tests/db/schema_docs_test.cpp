// The schema documentation must name every table, view and column the schema creates.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "db/database.h"
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
