// The bound on what files in flight hold (indexer/flight_budget.h), and the pipeline under it.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "db/database.h"
#include "indexer/flight_budget.h"
#include "indexer/pipeline.h"
#include "support/database_rows.h"
#include "support/index_tree.h"
#include "support/sample_with_images.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

// Runs `wait` on a thread of its own: whether it has returned a moment after it began, and after
// `free`.
template <typename Wait, typename Free>
std::pair<bool, bool> returned_before_and_after(Wait wait, Free free) {
  std::atomic<bool> began{false}, returned{false};
  std::thread waiter([&] {
    began = true;
    wait();
    returned = true;
  });
  while (!began) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const bool before = returned;
  free();
  waiter.join();
  return {before, returned};
}

}  // namespace

TEST_CASE("the scan waits while the files waiting for the writer hold the budget", "[indexer]") {
  FlightBudget budget(100);
  CHECK(budget.wait_for_room());  // nothing in flight
  budget.enter(500);              // a file over the whole budget goes when nothing else is in flight
  budget.parsed(500, 500);
  const auto [before, after] = returned_before_and_after([&] { CHECK(budget.wait_for_room()); },
                                                         [&] { budget.leave(500); });
  CHECK_FALSE(before);
  CHECK(after);
  budget.enter(10);
  CHECK(budget.wait_for_room());  // 10 of 100 held: room
  budget.parsed(10, 100);         // its rows take the room
  const auto [held, freed] = returned_before_and_after([&] { CHECK(budget.wait_for_room()); },
                                                       [&] { budget.leave(100); });
  CHECK_FALSE(held);
  CHECK(freed);
}

TEST_CASE("abandon ends every wait, and the scan then hands out nothing", "[indexer]") {
  FlightBudget budget(100);
  budget.enter(1000);
  const auto [waiting, ended] = returned_before_and_after([&] { CHECK_FALSE(budget.wait_for_room()); },
                                                          [&] { budget.abandon(); });
  CHECK_FALSE(waiting);
  CHECK(ended);
  CHECK_FALSE(budget.wait_for_room());
}

TEST_CASE("files held back by a one-byte waiting budget are indexed as one thread indexes them", "[indexer]") {
  // Disc images and archives too: KH2 members the scan decodes are charged before their parse.
  const test::SampleWithImages sample;
  const test::TempDir out;
  auto held_back = test::index_options(sample.dir.path(), out / "held.db", "t");
  held_back.threads = 2;
  held_back.waiting_budget = 1;
  auto one_thread = test::index_options(sample.dir.path(), out / "one.db", "t");
  one_thread.threads = 1;
  const auto held_summary = run_index(held_back);
  const auto one_summary = run_index(one_thread);
  CHECK(held_summary.totals.files > 40);
  CHECK(held_summary.totals.members > 25);
  CHECK(held_summary.totals.files == one_summary.totals.files);
  auto held_db = open_read_only(out / "held.db");
  auto one_db = open_read_only(out / "one.db");
  CHECK(test::all_rows(held_db, {"indexed_at", "parse_ms"}) == test::all_rows(one_db, {"indexed_at", "parse_ms"}));
}
