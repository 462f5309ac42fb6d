// Kills `animdex index` with SIGKILL at many moments and checks that the database is intact
// and holds, for the label, either the complete previous dump or the complete new one.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "db/database.h"
#include "db/sql_runner.h"
#include "sample/sample_dump.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

pid_t start_index(const fs::path& root, const fs::path& database) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    // --full: every run parses and writes the whole tree, so kills land inside real work.
    ::execl(ANIMDEX_BINARY, "animdex", "index", root.c_str(), "--db", database.c_str(), "--label", "L", "--replace", "--quiet",
            "--threads", "2", "--full", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

// Every dump a reader can see is complete: its recorded count equals its rows.
void check_consistent(const fs::path& database, std::int64_t old_count, std::int64_t new_count) {
  auto db = open_read_only(database);
  CHECK(std::get<std::string>(run_read_only_sql(db, "PRAGMA integrity_check").rows.at(0).at(0)) == "ok");
  CHECK(test::foreign_key_violations(db) == 0);
  REQUIRE(test::query_integer(db, "SELECT COUNT(*) FROM dumps WHERE label = 'L'") == 1);
  const auto recorded = test::query_integer(db, "SELECT file_count FROM dumps WHERE label = 'L'");
  CHECK((recorded == old_count || recorded == new_count));
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files f JOIN dumps d ON d.id = f.dump_id WHERE d.label = 'L'") == recorded);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations a JOIN files f ON f.id = a.file_id "
                    "JOIN dumps d ON d.id = f.dump_id WHERE d.label = 'L'") ==
        test::query_integer(db, "SELECT SUM(animation_count) FROM files f JOIN dumps d ON d.id = f.dump_id WHERE d.label = 'L'"));
}

}  // namespace

TEST_CASE("SIGKILL at any moment leaves the previous or the new dump, complete", "[crash_safety]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 41;
  write_sample_dump(dir / "a", options);
  options.character_count = 40;  // a second version: one character fewer
  write_sample_dump(dir / "b", options);
  const auto database = dir / "kill.db";

  const auto started = Clock::now();
  REQUIRE(WEXITSTATUS(wait_for(start_index(dir / "a", database))) == 3);  // the sample has 2 broken files
  const auto full_run = Clock::now() - started;
  std::int64_t count_a = 0;
  {
    auto db = open_read_only(database);
    count_a = test::query_integer(db, "SELECT file_count FROM dumps WHERE label = 'L'");
  }
  const std::int64_t count_b = count_a - 2;

  // Kill at moments spread from 5% to 100% of a full run until 24 runs died mid-way (a run that
  // finished first is fine too: it must have left the new dump complete).
  int killed = 0;
  int attempts = 0;
  while (killed < 24 && attempts < 100) {
    const auto delay = full_run * ((attempts * 7) % 20 + 1) / 20;
    const pid_t pid = start_index(attempts % 2 ? dir / "a" : dir / "b", database);
    std::this_thread::sleep_for(delay);
    ::kill(pid, SIGKILL);
    const int status = wait_for(pid);
    killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;  // not already finished
    INFO("attempt " << attempts);
    check_consistent(database, count_a, count_b);
    ++attempts;
  }
  CHECK(killed >= 24);
  // Runs left to finish switch the label between the two versions, complete each time.
  for (int run = 0; run < 2; ++run) {
    const auto& root = run % 2 ? dir / "a" : dir / "b";
    CHECK(WEXITSTATUS(wait_for(start_index(root, database))) == 3);
    check_consistent(database, count_a, count_b);
    auto db = open_read_only(database);
    CHECK(test::query_integer(db, "SELECT file_count FROM dumps WHERE label = 'L'") == (run % 2 ? count_a : count_b));
  }
  WARN("kill test: " << killed << " of " << attempts << " index runs killed mid-run, the others finished; "
                      "database intact after each");
}

TEST_CASE("a reader querying during an index run sees only complete dumps", "[crash_safety]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 41;
  write_sample_dump(dir / "a", options);
  const auto database = dir / "read.db";
  REQUIRE(WEXITSTATUS(wait_for(start_index(dir / "a", database))) == 3);
  auto db = open_read_only(database);
  const auto count = test::query_integer(db, "SELECT file_count FROM dumps WHERE label = 'L'");

  const pid_t pid = start_index(dir / "a", database);
  int checks = 0;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    check_consistent(database, count, count);
    ++checks;
  }
  CHECK(WEXITSTATUS(status) == 3);
  CHECK(checks > 0);
}

TEST_CASE("SIGKILL during the first index of a new database leaves nothing a reader can mistake", "[crash_safety]") {
  // A new database's first index writes with the rollback journal (db/database.cpp): killed, it
  // may leave a hot journal. A reader rolls it back and sees no dump (or the complete one), never a
  // half-written file; the next index finishes.
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 41;
  write_sample_dump(dir / "a", options);
  const auto probe = dir / "probe.db";
  const auto started = Clock::now();
  REQUIRE(WEXITSTATUS(wait_for(start_index(dir / "a", probe))) == 3);
  const auto full_run = Clock::now() - started;
  std::int64_t count = 0;
  {
    auto db = open_read_only(probe);
    count = test::query_integer(db, "SELECT file_count FROM dumps WHERE label = 'L'");
  }
  int rolled_back = 0;
  for (int attempt = 0; attempt < 8; ++attempt) {
    const auto database = dir / fmt::format("first-{}.db", attempt);
    const pid_t pid = start_index(dir / "a", database);
    std::this_thread::sleep_for(full_run * (2 * attempt + 3) / 20);
    ::kill(pid, SIGKILL);
    wait_for(pid);
    INFO("attempt " << attempt);
    const bool journal = fs::exists(database.string() + "-journal");
    if (fs::exists(database) && fs::file_size(database) > 0) {
      try {
        auto db = open_read_only(database);
        CHECK(std::get<std::string>(run_read_only_sql(db, "PRAGMA integrity_check").rows.at(0).at(0)) == "ok");
        const auto dumps = test::query_integer(db, "SELECT COUNT(*) FROM dumps WHERE label = 'L'");
        if (dumps == 1) check_consistent(database, count, count);
      } catch (const DatabaseError& error) {
        // Killed before the schema was complete: said so, never a read of half-written pages.
        CHECK_THAT(error.what(), Catch::Contains("is not an animdex database") ||
                                     Catch::Contains("has schema version 0, older than"));
      }
      rolled_back += journal && !fs::exists(database.string() + "-journal");  // a hot one: the reader rolled it back
    }
    CHECK(WEXITSTATUS(wait_for(start_index(dir / "a", database))) == 3);
    check_consistent(database, count, count);
  }
  WARN("first-index kill test: readers rolled back the journal of " << rolled_back << " of 8 killed runs");
}
