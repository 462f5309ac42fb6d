// The bound on what files in flight hold (indexer/flight_budget.h), and the pipeline under it.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "db/database.h"
#include "indexer/flight_budget.h"
#include "indexer/pipeline.h"
#include "sample/sample_dump.h"
#include "sample/sample_images.h"
#include "support/database_rows.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

// Runs `wait` on a thread of its own: whether it has returned after a moment, and after `free`.
template <typename Wait, typename Free>
std::pair<bool, bool> returned_before_and_after(Wait wait, Free free) {
  std::atomic<bool> returned{false};
  std::thread waiter([&] {
    wait();
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const bool before = returned;
  free();
  waiter.join();
  return {before, returned};
}

}  // namespace

TEST_CASE("the scan waits for room only while files in flight hold the waiting budget", "[indexer]") {
  FlightBudget budget(100, 1);
  budget.wait_for_room();  // nothing in flight
  budget.enter(500);       // a file over the whole budget goes, alone
  budget.enter(0);
  budget.leave(0);
  const auto [before, after] = returned_before_and_after([&] { budget.wait_for_room(); }, [&] { budget.leave(500); });
  CHECK_FALSE(before);
  CHECK(after);
  budget.enter(10);
  budget.wait_for_room();  // 10 of 100 held: room
  // A parsed file holding more than it did before parsing takes the room.
  budget.change(10, 100);
  const auto [held, freed] = returned_before_and_after([&] { budget.wait_for_room(); }, [&] { budget.change(100, 5); });
  CHECK_FALSE(held);
  CHECK(freed);
}

TEST_CASE("at most parse_slots files parse at once, and abandon releases every wait", "[indexer]") {
  FlightBudget budget(100, 1);
  budget.begin_parse();
  const auto [before, after] = returned_before_and_after([&] { budget.begin_parse(); }, [&] { budget.end_parse(); });
  CHECK_FALSE(before);
  CHECK(after);
  budget.enter(1000);
  budget.enter(0);
  const auto [waiting, released] = returned_before_and_after([&] { budget.wait_for_room(); }, [&] { budget.abandon(); });
  CHECK_FALSE(waiting);
  CHECK(released);
}

TEST_CASE("files held back by a one-byte waiting budget are indexed as one thread indexes them", "[indexer]") {
  // Disc images and archives too: KH2 members the scan decodes are charged before their parse.
  test::TempDir dir;
  SampleDumpOptions sample;
  sample.character_count = 3;
  sample.include_problem_files = false;
  sample.include_kh2 = sample.include_nsbca = true;
  write_sample_dump(dir / "tree/dump", sample);
  write_sample_images(dir / "tree/dump", dir / "tree/images");
  auto held_back = test::index_options(dir / "tree", dir / "held.db", "t");
  held_back.threads = 2;
  held_back.waiting_budget = 1;
  auto one_thread = test::index_options(dir / "tree", dir / "one.db", "t");
  one_thread.threads = 1;
  const auto held_summary = run_index(held_back);
  const auto one_summary = run_index(one_thread);
  CHECK(held_summary.totals.files > 40);
  CHECK(held_summary.totals.members > 25);
  CHECK(held_summary.totals.files == one_summary.totals.files);
  auto held_db = open_read_only(dir / "held.db");
  auto one_db = open_read_only(dir / "one.db");
  CHECK(test::all_rows(held_db, {"indexed_at", "parse_ms"}) == test::all_rows(one_db, {"indexed_at", "parse_ms"}));
}
