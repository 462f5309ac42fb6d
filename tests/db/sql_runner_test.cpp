#include <catch2/catch.hpp>

#include "db/database.h"
#include "db/sql_runner.h"
#include "output/result_table.h"
#include "support/test_support.h"

using namespace animdex;

namespace {
std::filesystem::path make_database(const test::TempDir& dir) {
  const auto path = dir / "test.db";
  auto db = open_for_writing(path);
  db.exec("INSERT INTO dumps(label, root, indexed_at) VALUES ('a', '/r', 'now')");
  return path;
}
}  // namespace

TEST_CASE("read-only SQL returns typed rows and binds 0x-hex as integers", "[sql]") {
  test::TempDir dir;
  auto db = open_read_only(make_database(dir));
  auto table = run_read_only_sql(db, "SELECT :value AS v, typeof(:value) AS t, 'x' AS s, 1.5 AS r, NULL AS n",
                                 {{"value", "0x76"}});
  REQUIRE(table.rows.size() == 1);
  CHECK(table.columns == std::vector<std::string>{"v", "t", "s", "r", "n"});
  CHECK(std::get<std::int64_t>(table.rows[0][0]) == 118);
  CHECK(std::get<std::string>(table.rows[0][1]) == "integer");
  CHECK(std::get<double>(table.rows[0][3]) == 1.5);
  CHECK(std::holds_alternative<std::monostate>(table.rows[0][4]));
  CHECK(run_read_only_sql(db, "SELECT typeof(:v)", {{"v", "nar"}}).rows[0][0] == Cell{std::string("text")});
  CHECK(run_read_only_sql(db, "SELECT typeof(:v)", {{"v", "NULL"}}).rows[0][0] == Cell{std::string("null")});
  // Free SQL reads the type off the text: "007" and "0008" keep their zeros, as labels and names do.
  CHECK(run_read_only_sql(db, "SELECT :v", {{"v", "007"}}).rows[0][0] == Cell{std::string("007")});
  CHECK(run_read_only_sql(db, "SELECT :v", {{"v", "0x76"}}).rows[0][0] == Cell{std::int64_t{118}});
  CHECK(run_read_only_sql(db, "SELECT :v", {{"v", "0"}}).rows[0][0] == Cell{std::int64_t{0}});
  CHECK(run_read_only_sql(db, "SELECT :v", {{"v", "2.5"}}).rows[0][0] == Cell{2.5});
  CHECK(run_read_only_sql(db, "PRAGMA table_info(dumps)").rows.size() >= 4);
  CHECK(run_read_only_sql(db, "SELECT 1; SELECT 2 AS two").columns == std::vector<std::string>{"two"});
}

TEST_CASE("statements that write are refused before anything runs", "[sql]") {
  test::TempDir dir;
  const auto path = make_database(dir);
  auto db = open_read_only(path);
  const char* writes[] = {
      "INSERT INTO dumps(label, root, indexed_at) VALUES ('b', '/r', 'now')",
      "UPDATE dumps SET label = 'z'",
      "DELETE FROM dumps",
      "DROP TABLE dumps",
      "CREATE TABLE t(x)",
      "SELECT 1; DELETE FROM dumps",
      "ATTACH DATABASE ':memory:' AS other",
      "VACUUM INTO '/tmp/animdex-copy.db'",
      "PRAGMA writable_schema = 1",
      "PRAGMA user_version = 99",
      "SELECT load_extension('libfoo')",
      "REINDEX",
  };
  for (const char* sql : writes) {
    INFO(sql);
    CHECK_THROWS_AS(run_read_only_sql(db, sql), WriteRefused);
  }
  CHECK(std::get<std::int64_t>(run_read_only_sql(db, "SELECT COUNT(*) FROM dumps WHERE label = 'a'").rows[0][0]) == 1);
  CHECK_THROWS_AS(run_read_only_sql(db, "SELEC 1"), SqlError);
}

TEST_CASE("databases are identified before use", "[sql]") {
  test::TempDir dir;
  {
    SQLite::Database other((dir / "other.db").string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    other.exec("CREATE TABLE notes(x)");
  }
  CHECK_THROWS_WITH(open_read_only(dir / "other.db"), Catch::Contains("not an animdex database"));
  CHECK_THROWS_WITH(open_for_writing(dir / "other.db"), Catch::Contains("not an animdex database"));
  CHECK_THROWS_WITH(open_read_only(dir / "missing.db"), Catch::Contains("no such database file"));
  const auto path = make_database(dir);
  {
    SQLite::Database raw(path.string(), SQLite::OPEN_READWRITE);
    raw.exec("PRAGMA user_version = 99");
  }
  CHECK_THROWS_WITH(open_read_only(path), Catch::Contains("schema version 99, newer"));
}

TEST_CASE("an expression's double reads back as the same double (issue 39)", "[sql]") {
  test::TempDir dir;
  auto db = open_read_only(make_database(dir));
  const auto table = run_read_only_sql(db, "SELECT 0.1 + 0.2 AS sum, 1.0 / 3 AS third");
  REQUIRE(table.rows.size() == 1);
  CHECK(std::get<double>(table.rows[0][0]) == 0.1 + 0.2);
  CHECK(cell_text(table.rows[0][0]) == "0.30000000000000004");
  CHECK(cell_text(table.rows[0][1]) == "0.3333333333333333");
}
