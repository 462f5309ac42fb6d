// The shared Nitro FNT walker and builder (containers.md section 3 ".nds ROM (NitroFS)"): hand-made
// tables, offsets relative to a base, the nameless root, caps, and what build_fnt writes.
#include <catch2/catch.hpp>

#include "containers/nitro_fnt.h"
#include "support/corrupt_input.h"
#include "support/byte_list.h"

using namespace animdex;
using namespace animdex::nitro_fnt;
using test::Bytes;

namespace {

std::uint64_t get(const Bytes& b, std::size_t at, int size) { return test::get(b, at, size, LE); }

Result<FntListing> walk(const Bytes& fnt, std::uint64_t base, std::uint64_t file_count, const ContainerLimits& limits = {}) {
  return catch_parse_failure<FntListing>([&] { return walk_fnt(fnt, base, file_count, limits); });
}

// GBATEK's shape: root (first file 2 after two overlays) with "x" file and "d" directory, "d"
// holding "y" and "z".
Bytes two_level_fnt() {
  return test::byte_list({16, 0, 0, 0, 2, 0, 2, 0,          // root: sub-table 16, first file 2, D = 2
                   25, 0, 0, 0, 3, 0, 0x00, 0xF0,    // 0xF001: sub-table 25, first file 3, parent 0xF000
                   0x01, 'x', 0x81, 'd', 0x01, 0xF0, 0x00,  // root records
                   0x00, 0x00,                              // (gap bytes nobody reads)
                   0x01, 'y', 0x01, 'z', 0x00});
}

// What build_fnt writes for {"x", "d/y", "d/z"} from file ID 2: the same table, sub-tables packed.
Bytes two_level_fnt_without_gap() {
  return test::byte_list({16, 0, 0, 0, 2, 0, 2, 0, 23, 0, 0, 0, 3, 0, 0x00, 0xF0,  //
                   0x01, 'x', 0x81, 'd', 0x01, 0xF0, 0x00,                  //
                   0x01, 'y', 0x01, 'z', 0x00});
}

}  // namespace

TEST_CASE("walk_fnt: a two-level table", "[fnt]") {
  auto walked = walk(two_level_fnt(), 0x1000, 5);
  INFO((walked.ok() ? std::string() : walked.error().message()));
  REQUIRE(walked.ok());
  const auto& listing = walked.value();
  CHECK(listing.root_first_file_id == 2);
  CHECK(listing.directory_count == 2);
  CHECK(listing.warnings.empty());
  REQUIRE(listing.files.size() == 3);
  CHECK(listing.files[0].file_id == 2);
  CHECK(listing.files[0].path == "x");
  CHECK(listing.files[0].record_offset == 0x1000 + 16);
  CHECK(listing.files[1].file_id == 3);
  CHECK(listing.files[1].path == "d/y");
  CHECK(listing.files[2].file_id == 4);
  CHECK(listing.files[2].path == "d/z");
}

TEST_CASE("walk_fnt: the nameless root points into its own entry", "[fnt]") {
  const Bytes fnt = nameless_fnt();
  CHECK(fnt == test::byte_list({4, 0, 0, 0, 0, 0, 1, 0}));
  auto walked = walk(fnt, 0, 10);
  REQUIRE(walked.ok());
  CHECK(walked.value().files.empty());
  CHECK(walked.value().directory_count == 1);
}

TEST_CASE("walk_fnt: errors name base + offset", "[fnt][corrupt]") {
  test::expect_parse_error(walk(test::byte_list({4, 0, 0, 0, 0, 0, 1}), 0x200, 0), "an FNT of at least 8 bytes", 0x200);
  test::expect_parse_error(walk(two_level_fnt(), 0x200, 4), "a file ID below the 4 files", 0x200 + 27);
  Bytes looped = two_level_fnt();
  looped[20] = std::byte{0x00};  // root's "d" -> child 0xF000 (the root itself)
  test::expect_parse_error(walk(looped, 0x200, 5), "each directory listed once", 0x200 + 20);
}

TEST_CASE("walk_fnt: unreachable directories are a warning", "[fnt]") {
  const Bytes fnt = test::byte_list({16, 0, 0, 0, 0, 0, 2, 0, 17, 0, 0, 0, 0, 0, 0x00, 0xF0, 0x00, 0x00});
  auto walked = walk(fnt, 0, 0);
  REQUIRE(walked.ok());
  REQUIRE(walked.value().warnings.size() == 1);
  CHECK_THAT(walked.value().warnings[0], Catch::Contains("1 of the FNT's 2 directories are not reachable"));
}

TEST_CASE("walk_fnt caps: named files and path bytes", "[fnt][caps]") {
  ContainerLimits limits;
  limits.max_members = 2;
  test::expect_parse_error(walk(two_level_fnt(), 0, 5, limits), "at most 2 named files", 27);
  limits = {};
  limits.max_table_size = 4;  // "x" (1) + "d" (1) + "d/y" (3) = 5 > 4
  test::expect_parse_error(walk(two_level_fnt(), 0, 5, limits), "at most 4 bytes of paths in all", 25);
  limits.max_table_size = 9;  // 1 + 1 + 3 + 3 = 8
  CHECK(walk(two_level_fnt(), 0, 5, limits).ok());
}

TEST_CASE("walk_fnt: a deep chain of directories stays linear and capped", "[fnt][caps]") {
  // 4096 nested directories named with 127 bytes each: paths would total gigabytes without the cap.
  const std::size_t depth = 4096;
  std::vector<std::string> paths = {std::string()};
  for (std::size_t i = 0; i < depth - 1; ++i) paths[0] += std::string(127, 'a' + static_cast<char>(i % 26)) + "/";
  paths[0] += "leaf";
  const auto layout = build_fnt(paths, 0);
  CHECK(get(layout.table, 6, 2) == depth);
  ContainerLimits limits;
  auto walked = walk(layout.table, 0, 1, limits);
  REQUIRE_FALSE(walked.ok());
  CHECK_THAT(walked.error().message(), Catch::Contains("bytes of paths in all"));
}

TEST_CASE("build_fnt: directory table, parents, IDs and record order", "[fnt]") {
  const auto layout = build_fnt({"x", "d/y", "d/z"}, 2);
  CHECK(layout.table == two_level_fnt_without_gap());
  CHECK(layout.file_order == std::vector<std::size_t>{0, 1, 2});
}
