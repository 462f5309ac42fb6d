// One crafted corrupt IDX per rule of containers.md section 4: errors (offset in the IDX) for what
// makes the table unreadable, warnings naming the entry's IDX offset for bad entries, which are
// left out while the others are listed.
#include <catch2/catch.hpp>

#include "containers/iso9660/sparse_source.h"
#include "containers/kh2_idx/kh2_idx_container.h"
#include "containers/kh2_idx/kh2_idx_writer.h"
#include "support/corrupt_input.h"

using namespace animdex;
using namespace animdex::kh2_idx;
using Bytes = std::vector<std::byte>;

namespace {

Result<MemberList> list(const Bytes& idx, std::uint64_t img_size, const ContainerLimits& limits = {}) {
  const MemorySource table(idx);
  const test::SparseSource img({}, img_size);
  return list_kh2_idx({table, img, "KH2.IDX"}, limits);
}

// Three good raw entries of 4096 bytes at blocks 0, 2, 4 of a 6-block IMG.
std::vector<Kh2IdxEntry> good_entries() {
  return {{0x100, 1, 1, 0, 4096}, {0x200, 2, 1, 2, 4096}, {0x300, 3, 1, 4, 4096}};
}

constexpr std::uint64_t kImgSize = 6 * 2048;

void expect_warning(const MemberList& listed, const std::string& text) {
  INFO(Catch::rangeToString(listed.warnings));
  CHECK(std::any_of(listed.warnings.begin(), listed.warnings.end(),
                    [&](const std::string& warning) { return warning.find(text) != std::string::npos; }));
}

}  // namespace

TEST_CASE("corrupt KH2.IDX tables: errors", "[kh2_idx][corrupt]") {
  const Bytes good = write_kh2_idx(good_entries());
  REQUIRE(list(good, kImgSize).ok());
  SECTION("shorter than the entry count") {
    test::expect_parse_error(list(Bytes(3), kImgSize), "a 4-byte KH2.IDX entry count", 0);
  }
  SECTION("size != 4 + 16 x count") {
    Bytes b = good;
    test::put(b, 0, 4, 4, LE);
    test::expect_parse_error(list(b, kImgSize), "an entry count with 4 + 16 x count = the file size 52", 0);
    Bytes longer = good;
    longer.push_back(std::byte{0});
    test::expect_parse_error(list(longer, kImgSize), "an entry count with 4 + 16 x count", 0);
  }
  SECTION("more entries than max_members") {
    ContainerLimits limits;
    limits.max_members = 2;
    test::expect_parse_error(list(good, kImgSize, limits), "at most 2 entries", 0);
  }
  SECTION("a table over max_table_size") {
    ContainerLimits limits;
    limits.max_table_size = 51;
    test::expect_parse_error(list(good, kImgSize, limits), "an IDX of at most 51 bytes", 0);
  }
}

TEST_CASE("corrupt KH2.IDX entries: warnings, the others listed", "[kh2_idx][corrupt]") {
  SECTION("entries not sorted by Hash32") {
    auto entries = good_entries();
    std::swap(entries[1], entries[2]);
    auto listed = list(write_kh2_idx(entries), kImgSize);
    REQUIRE(listed.ok());
    CHECK(listed.value().members.size() == 3);
    expect_warning(listed.value(), "not in strictly ascending Hash32 order: 1 out of place, the first at IDX offset 0x24");
  }
  SECTION("the same Hash32 twice") {
    auto entries = good_entries();
    entries[1].hash32 = entries[0].hash32;
    auto listed = list(write_kh2_idx(entries), kImgSize);
    REQUIRE(listed.ok());
    expect_warning(listed.value(), "the first at IDX offset 0x14");
  }
  SECTION("a raw entry past the IMG end") {
    auto entries = good_entries();
    entries[1].size = 4 * 2048 + 1;  // from block 2: ends one byte past the IMG
    auto listed = list(write_kh2_idx(entries), kImgSize);
    REQUIRE(listed.ok());
    CHECK(listed.value().members.size() == 2);
    expect_warning(listed.value(), "entry 1 (@00000200-0002) at IDX offset 0x14 left out: bytes [0x1000, 0x3001) outside the 12288-byte IMG");
  }
  SECTION("an entry whose block is past the IMG end") {
    auto entries = good_entries();
    entries[2].block = 0xFFFFFFFF;
    auto listed = list(write_kh2_idx(entries), kImgSize);
    REQUIRE(listed.ok());
    CHECK(listed.value().members.size() == 2);
    expect_warning(listed.value(), "entry 2 (@00000300-0003) at IDX offset 0x24 left out: bytes [0x7fffffff800");
  }
  SECTION("a compressed entry's blocks past the IMG end") {
    auto entries = good_entries();
    entries[2].descriptor = 0x4002;  // 3 blocks from block 4
    auto listed = list(write_kh2_idx(entries), kImgSize);
    REQUIRE(listed.ok());
    expect_warning(listed.value(), "at IDX offset 0x24 left out: bytes [0x2000, 0x3800)");
  }
  SECTION("a streamed entry flagged compressed") {
    auto entries = good_entries();
    entries[0].descriptor = 0xC001;
    auto listed = list(write_kh2_idx(entries), kImgSize);
    REQUIRE(listed.ok());
    CHECK(listed.value().members.size() == 2);
    expect_warning(listed.value(), "entry 0 (@00000100-0001) at IDX offset 0x4 left out: streamed and compressed at once");
  }
  SECTION("an empty IDX lists nothing") {
    auto listed = list(write_kh2_idx({}), kImgSize);
    REQUIRE(listed.ok());
    CHECK(listed.value().members.empty());
  }
}

TEST_CASE("KH2 IDX writer refuses what the format cannot hold", "[kh2_idx][writer]") {
  CHECK_THROWS_AS(build_kh2_idx_img({{"a.bin", Bytes(10), true, true}}), std::invalid_argument);
  CHECK_THROWS_AS(build_kh2_idx_img({{"a.bin", Bytes(10)}, {"a.bin", Bytes(20)}}), std::invalid_argument);
  CHECK_THROWS_AS(build_kh2_idx_img({{"big.bin", Bytes(0x4000 * 2048 + 1)}}), std::length_error);
}
