// What configure_sqlite_for_indexing (db/database.h) gives SQLite. Its settings are process-wide
// and taken only before SQLite initialises, which this test process has long done: each check runs
// in a forked child that shuts SQLite down, configures it afresh and reports through its exit code.
#include <catch2/catch.hpp>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "db/database.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

// Runs `check` in a forked child; its return value is the child's exit code (0: passed), -1 when
// the child did not exit (a signal, or a minute gone). A throw is exit code 100: the child never
// unwinds into the test runner and goes on with its tests.
template <typename Check>
int in_child(Check check) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(60);
    int code = 100;
    try {
      code = check();
    } catch (...) {
    }
    ::_exit(code);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

// SQLite's high-water mark of `what`. The page cache's counters are kept with the allocation
// statistics off, as `index` runs.
sqlite3_int64 highest(int what) {
  sqlite3_int64 current = 0, high = 0;
  sqlite3_status64(what, &current, &high, 0);
  return high;
}

}  // namespace

TEST_CASE("an indexing process keeps SQLite's page cache in a region of its own", "[db]") {
  test::TempDir dir;
  const std::string path = (dir / "cache.db").string();
  // Exit codes: 0 passed; 1 SQLite would not restart; 2 a write failed; 3 the cache did not fill
  // from the region; 4 pages of kPageSize did not fit in it.
  const int result = in_child([&] {
    if (sqlite3_shutdown() != SQLITE_OK) return 1;
    configure_sqlite_for_indexing();
    if (sqlite3_initialize() != SQLITE_OK) return 1;
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    // As the writer opens a new database: its page size and cache, then 40 MiB of rows in one
    // transaction, more than the cache holds, so it fills and SQLite recycles its pages.
    const std::string setup = "PRAGMA page_size = " + std::to_string(kPageSize) + "; PRAGMA cache_size = " +
                              std::to_string(kWriterCacheSize) + "; CREATE TABLE t(b BLOB); BEGIN;";
    if (sqlite3_exec(db, setup.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) return 2;
    for (int row = 0; row < 10240; ++row)
      if (sqlite3_exec(db, "INSERT INTO t VALUES (zeroblob(4000))", nullptr, nullptr, nullptr) != SQLITE_OK) return 2;
    const sqlite3_int64 from_region = highest(SQLITE_STATUS_PAGECACHE_USED);  // slots of the region
    const sqlite3_int64 cache_pages = -kWriterCacheSize * 1024LL / kPageSize;
    const sqlite3_int64 overflow_bytes = highest(SQLITE_STATUS_PAGECACHE_OVERFLOW);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    // SQLite starts recycling a little before the cache is full (2,033 of its 2,048 pages here).
    if (from_region < cache_pages * 9 / 10) return 3;
    if (overflow_bytes > 0) return 4;
    return 0;
  });
  CHECK(result == 0);
}
