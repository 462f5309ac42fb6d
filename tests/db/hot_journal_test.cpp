// A write killed mid-transaction in rollback-journal mode (a new database's first index) leaves a
// hot journal. Readers must never read the half-written pages: an animdex database they may write
// is rolled back; anyone else's file is refused and left as it is.
#include <catch2/catch.hpp>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fmt/format.h>
#include <string>

#include "db/database.h"
#include "db/key_tables.h"
#include "db/sql_runner.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

// In a child process: commits `committed` rows, then in one transaction overwrites them and adds
// many more with a page cache too small to hold them (so pages reach the file before the commit),
// and dies without committing. An animdex database gets the schema and its rows in `dumps` (only
// declared objects open); another program's file a table t of its own.
void die_mid_transaction(const fs::path& path, bool animdex_identity, int committed) {
  if (animdex_identity) enable_key_tables();  // the schema's keyframes table, in the child too
  const pid_t pid = ::fork();
  if (pid == 0) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) ::_exit(2);
    const std::string table = animdex_identity ? "dumps(label, root, indexed_at)" : "t(label, root, indexed_at)";
    const std::string setup = fmt::format(
        "PRAGMA journal_mode = DELETE; PRAGMA cache_size = 8; {} "
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {}) "
        "INSERT INTO {} SELECT 'c' || i, 'committed', '' FROM n;",
        animdex_identity ? fmt::format("PRAGMA application_id = {}; PRAGMA user_version = {}; {}", kApplicationId,
                                       kSchemaVersion, schema_ddl())
                         : "CREATE TABLE t(id INTEGER PRIMARY KEY, label TEXT, root TEXT, indexed_at TEXT);",
        committed, table);
    if (sqlite3_exec(db, setup.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) ::_exit(3);
    const std::string doomed = fmt::format(
        "BEGIN; UPDATE {0} SET root = 'doomed'; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE "
        "i < 20000) INSERT INTO {1} SELECT 'd' || i, printf('%.200c', 'x'), '' FROM n;",
        animdex_identity ? "dumps" : "t", table);
    if (sqlite3_exec(db, doomed.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) ::_exit(4);
    ::_exit(0);  // no COMMIT, no close: as SIGKILL would leave it
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE(fs::exists(path.string() + "-journal"));
}

}  // namespace

TEST_CASE("a reader rolls back the hot journal of a killed write to an animdex database", "[db][crash_safety]") {
  test::TempDir dir;
  const auto path = dir / "ours.db";
  die_mid_transaction(path, true, 50);
  auto db = open_read_only(path);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM dumps") == 50);  // the committed state, not the doomed one
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM dumps WHERE root = 'doomed'") == 0);
  CHECK(std::get<std::string>(run_read_only_sql(db, "PRAGMA integrity_check").rows.at(0).at(0)) == "ok");
  CHECK_FALSE(fs::exists(path.string() + "-journal"));
}

TEST_CASE("a reader leaves another program's hot journal alone and says why", "[db][crash_safety]") {
  test::TempDir dir;
  const auto path = dir / "theirs.db";
  die_mid_transaction(path, false, 50);
  const auto size_before = fs::file_size(path);
  try {
    open_read_only(path);
    FAIL("opened a file with a hot journal that is not ours");
  } catch (const DatabaseError& error) {
    CHECK_THAT(error.what(), Catch::Contains("-journal, which only its owner can roll back"));
  }
  CHECK(fs::exists(path.string() + "-journal"));
  CHECK(fs::file_size(path) == size_before);
}
