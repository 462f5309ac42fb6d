// One crafted corrupt input per validation rule of containers.md section 2 (Dolphin's
// FileSystemGCWii): a clear error naming the offset in the image, never a crash.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "containers/gcm/gcm_container.h"
#include "containers/gcm/gcm_test_support.h"
#include "support/corrupt_container.h"

using namespace animdex;
using namespace animdex::gcm;
using test::Bytes;

namespace {

void put(Bytes& bytes, std::size_t at, std::uint64_t value, int size = 4) { test::put(bytes, at, value, size, BE); }

const test::CorruptContainer disc{list_gcm, "test.iso"};

}  // namespace

// Fixture entries: 0 root, 1 a.bin, 2 dir/, 3 dir/b.bin, 4 dir/sub/, 5 dir/sub/c.bin, 6 z.bin.
TEST_CASE("corrupt boot.bin", "[gcm][corrupt]") {
  const Bytes good = test::fixture_disc();
  REQUIRE(test::list_disc(good).ok());
  SECTION("shorter than boot.bin") { disc.expect_error(Bytes(good.begin(), good.begin() + 0x43F), "0x440-byte boot.bin", 0); }
  SECTION("no GameCube magic") {
    Bytes b = good;
    put(b, kMagicOffset, 0x12345678);
    disc.expect_error(b, "the GameCube magic 0xc2339f3d, found 0x12345678", kMagicOffset);
  }
  SECTION("a Wii disc") {
    Bytes b = good;
    put(b, kMagicOffset, 0);
    put(b, kWiiMagicOffset, kWiiMagic);
    disc.expect_error(b, "Wii discs have encrypted partitions", kWiiMagicOffset);
  }
  SECTION("FST smaller than one entry") {
    Bytes b = good;
    put(b, kFstSizeField, 11);
    disc.expect_error(b, "an FST of at least 12 bytes", kFstSizeField);
  }
  SECTION("FST over the table cap") {
    Bytes b = good;
    put(b, kFstSizeField, (64u << 20) + 1);
    disc.expect_error(b, "at most 67108864 bytes (the table cap)", kFstSizeField);
  }
  SECTION("FST range outside the image") {
    Bytes b = good;
    put(b, kFstOffsetField, b.size() - 8);
    disc.expect_error(b, "an FST inside the", kFstOffsetField);
    put(b, kFstOffsetField, 0xFFFFFFFF);  // offset + size past 2^32: no wrap
    disc.expect_error(b, "an FST inside the", kFstOffsetField);
  }
}

TEST_CASE("corrupt FST root", "[gcm][corrupt]") {
  const Bytes good = test::fixture_disc();
  const std::size_t fst = test::fst_offset(good);
  SECTION("root is a file") {
    Bytes b = good;
    b[fst] = std::byte{0};
    disc.expect_error(b, "a root entry that is a directory", fst);
  }
  SECTION("more entries than the FST holds") {
    Bytes b = good;
    put(b, fst + 8, test::fst_size(good) / 12 + 1);
    disc.expect_error(b, "at most 9 entries in the 116-byte FST", fst + 8);
    put(b, fst + 8, 0xFFFFFFFF);  // 12 * count past 2^32: no wrap
    disc.expect_error(b, "at most 9 entries", fst + 8);
  }
  SECTION("last byte not NUL") {
    Bytes b = good;
    const std::size_t last = fst + test::fst_size(good) - 1;
    b[last] = std::byte{'x'};
    disc.expect_error(b, "a NUL as the FST's last byte", last);
  }
  SECTION("root name offset outside") {
    Bytes b = good;
    put(b, fst + 1, 32, 3);  // the string table has 32 bytes: 0..31
    disc.expect_error(b, "a name offset inside the 32-byte string table", fst + 1);
  }
  SECTION("root parent not 0") {
    Bytes b = good;
    put(b, fst + 4, 1);
    disc.expect_error(b, "parent index 0 for the root", fst + 4);
  }
  SECTION("no entries at all") {
    Bytes b = good;
    put(b, fst + 8, 0);
    disc.expect_error(b, "an entry count of at least 1", fst + 8);
  }
}

TEST_CASE("corrupt FST entries", "[gcm][corrupt]") {
  const Bytes good = test::fixture_disc();
  SECTION("name offset outside the string table") {
    Bytes b = good;
    put(b, test::entry_offset(b, 3) + 1, 0xFFFFFF, 3);
    disc.expect_error(b, "a name offset inside", test::entry_offset(b, 3) + 1);
  }
  SECTION("empty name") {
    Bytes b = good;
    const std::size_t name = test::name_offset(b, 1);
    b[name] = std::byte{0};
    disc.expect_error(b, "a non-empty name", name);
  }
  SECTION("a name with '/'") {
    Bytes b = good;
    const std::size_t name = test::name_offset(b, 5);  // "c.bin"
    b[name + 1] = std::byte{'/'};
    disc.expect_error(b, "a name without '/'", name + 1);
  }
  SECTION("directory's parent is not the enclosing directory") {
    Bytes b = good;
    put(b, test::entry_offset(b, 4) + 4, 0);  // dir/sub names the root, not dir (2)
    disc.expect_error(b, "parent index 2 (the enclosing directory), found 0", test::entry_offset(b, 4) + 4);
  }
  SECTION("directory's end not past itself (a cycle back)") {
    Bytes b = good;
    put(b, test::entry_offset(b, 4) + 8, 4);
    disc.expect_error(b, "an end index greater than the directory's own index 4", test::entry_offset(b, 4) + 8);
    put(b, test::entry_offset(b, 4) + 8, 1);
    disc.expect_error(b, "greater than the directory's own index 4", test::entry_offset(b, 4) + 8);
  }
  SECTION("directory's end past its parent's") {
    Bytes b = good;
    put(b, test::entry_offset(b, 4) + 8, 7);  // dir ends at 6
    disc.expect_error(b, "an end index at most 6 (the enclosing directory's end)", test::entry_offset(b, 4) + 8);
  }
  SECTION("a file outside the image is listed with a warning (its own row fails), not the whole table") {
    Bytes b = good;
    const auto listed_with = [&](const Bytes& bytes) {
      const auto listed = test::list_disc(bytes);
      REQUIRE(listed.ok());
      CHECK(listed.value().members.size() == test::list_disc(good).value().members.size());
      REQUIRE(listed.value().warnings.size() == 1);
      CHECK(listed.value().warnings[0].find("past a file inside the") != std::string::npos);
    };
    put(b, test::entry_offset(b, 3) + 8, b.size());
    listed_with(b);
    put(b, test::entry_offset(b, 3) + 4, 0xFFFFFFFF);  // offset + length past 2^32: no wrap
    put(b, test::entry_offset(b, 3) + 8, 0xFFFFFFFF);
    listed_with(b);
  }
  SECTION("a non-directory type byte other than 1 is a directory, as in Dolphin") {
    Bytes b = good;
    b[test::entry_offset(b, 2)] = std::byte{2};
    REQUIRE(test::list_disc(b).ok());
    CHECK(test::list_disc(b).value().members.size() == 4);
  }
}

TEST_CASE("an FST repeating one path 200,000 times makes 16 warnings and a count", "[gcm][corrupt][caps]") {
  // Issue 35: one warning per repeated entry, uncapped (a 96 KB CISO made 5.5 M warning rows).
  const std::size_t entries = 200'000;
  const std::size_t fst_at = 0x440, fst_size = entries * kFstEntrySize + 4;
  Bytes disc(fst_at + fst_size);
  test::put(disc, kMagicOffset, kGameCubeMagic, 4, BE);
  test::put(disc, kFstOffsetField, fst_at, 4, BE);
  test::put(disc, kFstSizeField, fst_size, 4, BE);
  test::put(disc, fst_at, 0x01000000, 4, BE);  // root: a directory, name offset 0
  test::put(disc, fst_at + 8, entries, 4, BE);
  // Every other entry is a file named "a" (name offset 1), empty, at offset 0.
  for (std::size_t i = 1; i < entries; ++i) test::put(disc, fst_at + i * kFstEntrySize, 1, 4, BE);
  disc[fst_at + entries * kFstEntrySize + 1] = std::byte{'a'};
  const MemorySource source{std::span<const std::byte>(disc)};
  const auto listed = test::list_disc(source);
  REQUIRE(listed.ok());
  CHECK(listed.value().members.size() == 1);
  REQUIRE(listed.value().warnings.size() == 17);
  CHECK(listed.value().warnings.back() == fmt::format("{} more repeated paths not listed", entries - 2 - 16));
}
