// What configure_sqlite_for_indexing (db/database.h) gives SQLite. Its settings are process-wide
// and taken only before SQLite initialises, which this test process has long done: each check runs
// in a forked child that shuts SQLite down, configures it afresh and reports through its exit code.
#include <catch2/catch.hpp>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "db/database.h"
#include "db/sqlite_memory.h"
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

}  // namespace

TEST_CASE("an indexing process keeps SQLite's page cache in an arena of its own", "[db]") {
  test::TempDir dir;
  const std::string path = (dir / "cache.db").string();
  // Exit codes: 0 passed; 1 SQLite would not restart; 2 a write failed; 3 the cache did not fill
  // from the arena; 4 a new table's few pages did not come from it, or more slots did; 5 closing
  // the database did not give its pages back.
  const int result = in_child([&] {
    if (sqlite3_shutdown() != SQLITE_OK) return 1;
    configure_sqlite_for_indexing();
    if (sqlite3_initialize() != SQLITE_OK) return 1;
    const PageArena* arena = sqlite_page_arena();
    if (arena == nullptr) return 3;
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    // As the writer opens a new database: its page size and cache, then 40 MiB of rows in one
    // transaction, more than the cache holds, so it fills and SQLite recycles its pages.
    const std::string setup = "PRAGMA page_size = " + std::to_string(kPageSize) + "; PRAGMA cache_size = " +
                              std::to_string(kWriterCacheSize) + "; CREATE TABLE t(b BLOB); BEGIN;";
    if (sqlite3_exec(db, setup.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) return 2;
    // A new table: its first pages come from the arena (not from a bulk block SQLite would take
    // for the first 20), and only a few of them, not the cache's 2,048.
    if (arena->in_use() == 0 || arena->high_water() > 16) return 4;
    for (int row = 0; row < 10240; ++row)
      if (sqlite3_exec(db, "INSERT INTO t VALUES (zeroblob(4000))", nullptr, nullptr, nullptr) != SQLITE_OK) return 2;
    const auto cache_pages = static_cast<std::size_t>(-kWriterCacheSize) * 1024 / kPageSize;
    const std::size_t from_arena = arena->high_water();
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    // SQLite starts recycling a little before the cache is full (2,033 of its 2,048 pages here).
    if (from_arena < cache_pages * 9 / 10) return 3;
    if (arena->in_use() > 0) return 5;
    return 0;
  });
  CHECK(result == 0);
}

TEST_CASE("SQLite's pages past the arena's slots come from the heap, and a slot moves there when it grows",
          "[db]") {
  test::TempDir dir;
  const std::string path = (dir / "small.db").string();
  // Exit codes: 0 passed; 1 SQLite would not restart; 2 a write failed; 3 the arena served more
  // than it holds or kept pages after the close; 4 a page-sized block did not come from the arena;
  // 5 growing it lost its bytes or left it in the arena.
  const int result = in_child([&] {
    if (sqlite3_shutdown() != SQLITE_OK || !give_sqlite_pages_an_arena(kPageSize, 8)) return 1;
    if (sqlite3_initialize() != SQLITE_OK) return 1;
    const PageArena* arena = sqlite_page_arena();
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    const std::string setup = "PRAGMA page_size = " + std::to_string(kPageSize) +
                              "; CREATE TABLE t(b BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
                              "FROM n WHERE i < 2000) INSERT INTO t SELECT zeroblob(4000) FROM n;";
    if (sqlite3_exec(db, setup.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) return 2;
    if (arena->high_water() != 8) return 3;  // 8 MB of rows: every slot taken, the rest on the heap
    sqlite3_close(db);
    if (arena->in_use() != 0) return 3;

    auto* block = static_cast<unsigned char*>(sqlite3_malloc(kPageSize + 64));
    if (block == nullptr || !arena->holds(block) || sqlite3_msize(block) < kPageSize + 64u) return 4;
    for (int i = 0; i < kPageSize + 64; ++i) block[i] = static_cast<unsigned char>(i * 7);
    if (sqlite3_realloc(block, kPageSize + 32) != block) return 5;  // still a page: it stays in its slot
    auto* grown = static_cast<unsigned char*>(sqlite3_realloc(block, 4 * kPageSize));
    if (grown == nullptr || arena->holds(grown) || arena->in_use() != 0) return 5;
    for (int i = 0; i < kPageSize + 64; ++i)
      if (grown[i] != static_cast<unsigned char>(i * 7)) return 5;
    sqlite3_free(grown);
    auto* shrunk = static_cast<unsigned char*>(sqlite3_malloc(kPageSize + 64));
    shrunk[0] = 42;
    shrunk = static_cast<unsigned char*>(sqlite3_realloc(shrunk, 100));  // no longer a page: to the heap
    if (shrunk == nullptr || arena->holds(shrunk) || shrunk[0] != 42 || arena->in_use() != 0) return 5;
    sqlite3_free(shrunk);
    return 0;
  });
  CHECK(result == 0);
}

TEST_CASE("SQLite shut down and configured again takes its pages from the same arena", "[db]") {
  test::TempDir dir;
  const std::string path = (dir / "again.db").string();
  // Exit codes: 0 passed; 1 a configuration was refused; 2 a write failed; 3 the second run did not
  // use the first arena; 4 a configuration was taken that should not be.
  const int result = in_child([&] {
    const auto write = [&] {
      sqlite3* db = nullptr;
      sqlite3_open(path.c_str(), &db);
      const std::string sql = "PRAGMA page_size = " + std::to_string(kPageSize) +
                              "; CREATE TABLE IF NOT EXISTS t(b BLOB); INSERT INTO t VALUES (zeroblob(40000))";
      const int done = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
      sqlite3_close(db);
      return done == SQLITE_OK;
    };
    if (sqlite3_shutdown() != SQLITE_OK || !give_sqlite_pages_an_arena(kPageSize, 64)) return 1;
    if (sqlite3_initialize() != SQLITE_OK) return 1;
    if (give_sqlite_pages_an_arena(kPageSize, 64)) return 4;  // SQLite runs: too late
    const PageArena* arena = sqlite_page_arena();
    if (!write()) return 2;
    const std::size_t first_run = arena->high_water();
    if (sqlite3_shutdown() != SQLITE_OK) return 1;
    if (give_sqlite_pages_an_arena(4096, 64)) return 4;  // another page size: refused
    if (!give_sqlite_pages_an_arena(kPageSize, 64) || sqlite_page_arena() != arena) return 1;
    if (sqlite3_initialize() != SQLITE_OK) return 1;
    if (!write()) return 2;
    if (first_run == 0 || arena->high_water() < first_run || arena->in_use() != 0) return 3;
    return 0;
  });
  CHECK(result == 0);
}
