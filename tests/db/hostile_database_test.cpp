// A database file may come from anyone: nothing in it runs (triggers, redefined views, the fts3
// tokenizer's pointers), reading it is bounded in time and value size, and the run says why.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "db/database.h"
#include "db/key_tables.h"
#include "db/sql_runner.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

// An indexed sample at dir/g.db.
std::string indexed_sample(const test::TempDir& dir) {
  test::write_clean_sample(dir / "dump", 2, false);
  const auto db = (dir / "g.db").string();
  REQUIRE(test::run({"index", (dir / "dump").string(), "--db", db, "--label", "s", "--quiet"}).code == 0);
  return db;
}

// Changes `path` as another program would: plain SQLite, no defensive mode.
void tamper(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  char* message = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  const std::string text = message ? message : "";
  sqlite3_free(message);
  sqlite3_close(db);
  INFO(text);
  REQUIRE(rc == SQLITE_OK);
}

}  // namespace

TEST_CASE("sql refuses fts3_tokenizer in both its forms", "[db][reliability]") {
  test::TempDir dir;
  const auto path = indexed_sample(dir);
  auto db = open_read_only(path);
  CHECK_THROWS_AS(run_read_only_sql(db, "SELECT fts3_tokenizer('simple')"), WriteRefused);
  CHECK_THROWS_AS(run_read_only_sql(db, "SELECT fts3_tokenizer('mine', x'4141414141414141')"), WriteRefused);
  const auto refused = test::run_capturing({"sql", "SELECT hex(fts3_tokenizer('simple'))", "--db", path});
  CHECK(refused.code == 4);
  CHECK(refused.out.empty());
}

TEST_CASE("a database with a trigger is refused by readers and by index, and nothing runs", "[db][reliability]") {
  test::TempDir dir;
  const auto path = indexed_sample(dir);
  tamper(path, "CREATE TRIGGER wipe AFTER INSERT ON files BEGIN DELETE FROM animations; END;");
  CHECK_THROWS_WITH(open_read_only(path), Catch::Contains("trigger wipe"));
  const auto index = test::run_capturing({"index", (dir / "dump").string(), "--db", path, "--label", "t", "--quiet"});
  CHECK(index.code == 1);
  CHECK_THAT(index.err, Catch::Contains("trigger wipe") && Catch::Contains("not opened"));
  tamper(path, "DROP TRIGGER wipe;");
  auto db = open_read_only(path);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations") > 0);  // nothing was deleted
}

TEST_CASE("a trigger named like a declared view is still a trigger, and refused", "[db][reliability]") {
  test::TempDir dir;
  const auto path = indexed_sample(dir);
  auto db = open_read_only(path);
  const auto view = std::get<std::string>(
      run_read_only_sql(db, "SELECT sql FROM sqlite_schema WHERE name = 'track_reuse'").rows.at(0).at(0));
  tamper(path, "CREATE TRIGGER track_reuse AFTER INSERT ON files BEGIN DELETE FROM files WHERE dump_id = 1; END; "
               "DROP VIEW track_reuse; " + view + ";");
  CHECK_THROWS_WITH(open_read_only(path), Catch::Contains("trigger track_reuse"));
  const auto index = test::run_capturing({"index", (dir / "dump").string(), "--db", path, "--label", "t", "--quiet"});
  CHECK(index.code == 1);
}

TEST_CASE("a changed index, virtual table, generated column or reference is refused naming it", "[db][reliability]") {
  test::TempDir dir;
  const auto path = indexed_sample(dir);
  const std::vector<std::pair<std::string, std::string>> changes = {
      {"DROP INDEX files_by_hash; CREATE INDEX files_by_hash ON files(content_hash) WHERE 1 = 1;", "index files_by_hash"},
      {"DROP TABLE keyframes; CREATE TABLE keyframes(track_id, key_index, time, frame, x, y, z, w);", "table keyframes"},
      {"ALTER TABLE dumps ADD COLUMN g TEXT GENERATED ALWAYS AS ('x') VIRTUAL;", "table dumps"},
      {"PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, 'REFERENCES dumps(id) ON DELETE "
       "CASCADE', 'REFERENCES dumps(id)') WHERE name = 'files';", "table files, whose references differ"}};
  for (const auto& [sql, named] : changes) {
    const auto copy = (dir / "copy.db").string();
    fs::remove(copy);
    fs::copy_file(path, copy);
    if (named == "table keyframes") enable_key_tables();
    tamper(copy, sql);
    INFO(sql);
    CHECK_THROWS_WITH(open_read_only(copy), Catch::Contains(named));
  }
}

TEST_CASE("a database whose view or table was redefined is refused naming it", "[db][reliability]") {
  test::TempDir dir;
  const auto path = indexed_sample(dir);
  const auto copy = (dir / "copy.db").string();
  fs::copy_file(path, copy);
  tamper(path, "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE VIEW file_catalog AS WITH "
               "RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c' WHERE name = 'file_catalog';");
  CHECK_THROWS_WITH(open_read_only(path), Catch::Contains("view file_catalog") && Catch::Contains("differs"));
  tamper(copy, "CREATE TABLE extra(x); CREATE VIEW mine AS SELECT 1;");
  const auto query = test::run_capturing({"query", "characters", "--db", copy});
  CHECK(query.code == 1);
  CHECK_THAT(query.err, Catch::Contains("table extra") || Catch::Contains("view mine"));
}

TEST_CASE("a reader stops at its time budget with a message that says so", "[db][reliability]") {
  test::TempDir dir;
  const auto path = indexed_sample(dir);
  const auto start = std::chrono::steady_clock::now();
  const auto spun = test::run_capturing({"sql", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                                                "SELECT COUNT(*) FROM c", "--db", path, "--timeout", "0.3"});
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(spun.code == 1);
  CHECK_THAT(spun.err, Catch::Contains("time budget") && Catch::Contains("0.3 s") && Catch::Contains("--timeout"));
  CHECK(took < std::chrono::seconds(10));
  // The budget was the command line's: after it, a reader in the same process has none.
  auto db = open_read_only(path);
  CHECK(test::query_integer(db, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) "
                                "SELECT COUNT(*) FROM c") == 3000000);
}

TEST_CASE("a value longer than any the indexer writes is an error, not a copy of it", "[db][reliability]") {
  test::TempDir dir;
  const auto path = indexed_sample(dir);
  tamper(path, "UPDATE files SET path = printf('%.*c', 40000000, 'x') WHERE id = (SELECT MIN(id) FROM files);");
  auto db = open_read_only(path);
  CHECK_THROWS_WITH(run_read_only_sql(db, "SELECT path FROM files"), Catch::Contains("longer than 32 MiB"));
  // report docs reads every path: it stops with the same message, its memory bounded by the limit.
  const auto docs = test::run_capturing({"report", "docs", "--db", path, "--out", (dir / "docs").string()});
  CHECK(docs.code == 1);
  CHECK_THAT(docs.err, Catch::Contains("longer than 32 MiB") && Catch::Contains("outside animdex"));
}

TEST_CASE("files a CHECK constraint refuses even as errors are counted and said, never lost silently",
          "[db][reliability]") {
  test::TempDir dir;
  const auto path = indexed_sample(dir);
  tamper(path, "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, 'REFERENCES dumps(id) ON "
               "DELETE CASCADE,  -- the dump', 'REFERENCES dumps(id) ON DELETE CASCADE CHECK (path NOT LIKE ''%/0000.mot''),"
               "  -- the dump') WHERE name = 'files';");
  const auto index = test::run_capturing({"index", (dir / "dump").string(), "--db", path, "--label", "again",
                                          "--allow-overlap"});
  CHECK(index.code == 3);
  CHECK_THAT(index.out + index.err, Catch::Contains("files could not be recorded at all"));
  auto db = open_read_only(path);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM scan_warnings WHERE message LIKE 'the database refused%'") > 0);
}
