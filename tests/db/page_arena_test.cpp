// PageArena (db/page_arena.h): slots carved on demand, given back and taken again, never touched
// before they are taken.
#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "db/page_arena.h"

using namespace animdex;

namespace {

// How many of the pages under [first, first + bytes) are resident (mincore).
std::size_t resident_pages(const void* first, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(first) & ~(page - 1);
  const std::size_t span = reinterpret_cast<std::uintptr_t>(first) + bytes - start;
  std::vector<unsigned char> flags((span + page - 1) / page);
  if (::mincore(reinterpret_cast<void*>(start), span, flags.data()) != 0) return SIZE_MAX;
  std::size_t resident = 0;
  for (const unsigned char flag : flags) resident += flag & 1;
  return resident;
}

}  // namespace

TEST_CASE("a page arena hands out each slot once until it is given back", "[db]") {
  PageArena arena(16384 + 130, 8);  // a page and a header of SQLite's size: rounded up to 8
  REQUIRE(arena.capacity() == 8);
  CHECK(arena.slot_bytes() == 16520);
  std::set<char*> taken;
  for (int i = 0; i < 8; ++i) {
    auto* slot = static_cast<char*>(arena.take());
    REQUIRE(slot != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(slot) % 8 == 0);
    CHECK(arena.holds(slot));
    CHECK(arena.holds(slot + arena.slot_bytes() - 1));
    std::memset(slot, i, arena.slot_bytes());  // the whole slot is the caller's
    taken.insert(slot);
  }
  CHECK(taken.size() == 8);
  CHECK(arena.take() == nullptr);  // full: the caller goes to the heap
  CHECK(arena.in_use() == 8);
  char* last = *taken.rbegin();
  CHECK_FALSE(arena.holds(last + arena.slot_bytes()));  // one past the last slot
  int on_heap = 0;
  CHECK_FALSE(arena.holds(&on_heap));

  char* freed = *taken.begin();
  arena.give_back(freed);
  CHECK(arena.in_use() == 7);
  CHECK(arena.take() == freed);  // the slot given back is the next one taken
  CHECK(arena.high_water() == 8);
}

TEST_CASE("a page arena touches only the slots it has handed out", "[db]") {
  constexpr std::size_t kSlots = 4096;  // 64 MiB of 16 KiB slots
  PageArena arena(16384, kSlots);
  REQUIRE(arena.capacity() == kSlots);
  auto* first = static_cast<char*>(arena.take());
  REQUIRE(first != nullptr);
  const std::size_t reserved = kSlots * arena.slot_bytes();
  CHECK(resident_pages(first, reserved) == 0);  // reserving and carving touch nothing
  std::memset(first, 1, arena.slot_bytes());
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  // One slot written: its pages (or the one 2 MiB page around it), nowhere near the 64 MiB.
  const std::size_t resident = resident_pages(first, reserved);
  CHECK(resident >= arena.slot_bytes() / page);
  CHECK(resident * page <= (std::size_t{2} << 20));
}

TEST_CASE("a page arena that cannot be reserved hands out nothing", "[db]") {
  PageArena empty(16384, 0);
  CHECK(empty.capacity() == 0);
  CHECK(empty.take() == nullptr);
  CHECK_FALSE(empty.holds(&empty));
}

TEST_CASE("a page arena shared by threads never hands one slot to two holders", "[db]") {
  constexpr std::size_t kSlots = 64;
  PageArena arena(16384, kSlots);
  REQUIRE(arena.capacity() == kSlots);
  // Each thread holds up to 16 slots at a time, each marked with its own number, and checks the
  // marks before giving them back: a slot handed out twice would carry the other thread's mark.
  const auto churn = [&](unsigned char mark, bool& clean) {
    std::vector<unsigned char*> held;
    for (int round = 0; round < 20000; ++round) {
      if (held.size() < 16) {
        auto* slot = static_cast<unsigned char*>(arena.take());
        if (slot == nullptr) continue;
        std::memset(slot, mark, 64);
        held.push_back(slot);
      } else {
        for (auto* slot : held) {
          for (int b = 0; b < 64; ++b) clean = clean && slot[b] == mark;
          arena.give_back(slot);
        }
        held.clear();
      }
    }
    for (auto* slot : held) arena.give_back(slot);
  };
  bool first_clean = true, second_clean = true;
  std::thread other([&] { churn(2, second_clean); });
  churn(1, first_clean);
  other.join();
  CHECK(first_clean);
  CHECK(second_clean);
  CHECK(arena.in_use() == 0);
  CHECK(arena.high_water() <= 32);
}
