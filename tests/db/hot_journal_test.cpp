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
#include "db/sql_runner.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

// In a child process: commits `committed` rows into table t, then in one transaction overwrites
// them and adds many more with a page cache too small to hold them (so pages reach the file before
// the commit), and dies without committing.
void die_mid_transaction(const fs::path& path, bool animdex_identity, int committed) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) ::_exit(2);
    const std::string setup = fmt::format(
        "PRAGMA journal_mode = DELETE; PRAGMA cache_size = 8; {} CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); "
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {}) "
        "INSERT INTO t(v) SELECT 'committed' FROM n;",
        animdex_identity ? fmt::format("PRAGMA application_id = {}; PRAGMA user_version = {};", kApplicationId,
                                       kSchemaVersion)
                         : "",
        committed);
    if (sqlite3_exec(db, setup.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) ::_exit(3);
    const char* doomed =
        "BEGIN; UPDATE t SET v = 'doomed'; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < "
        "20000) INSERT INTO t(v) SELECT printf('%.200c', 'x') FROM n;";
    if (sqlite3_exec(db, doomed, nullptr, nullptr, nullptr) != SQLITE_OK) ::_exit(4);
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
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM t") == 50);  // the committed state, not the doomed one
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM t WHERE v = 'doomed'") == 0);
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
