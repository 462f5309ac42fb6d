// One crafted corrupt FPK per validation rule of containers.md section 1 (and the caps): a clear
// error naming the field's offset, never a crash.
#include <catch2/catch.hpp>

#include <string>

#include "containers/container_test_support.h"
#include "containers/fpk/fpk_container.h"
#include "containers/fpk/fpk_writer.h"
#include "support/corrupt_container.h"

using namespace animdex;
using namespace animdex::fpk;
using test::Bytes;

namespace {

const test::CorruptContainer archive{list_fpk, "bad.fpk"};

void put(Bytes& b, std::size_t at, std::uint64_t value) { test::put(b, at, value, 4, BE); }

// Two entries: a compressed one and a raw one.
Bytes fixture() {
  return write_fpk({{"chr/nar/0000.mot", Bytes(3000, std::byte{7}), true},
                    {"chr/nar/0001.mot", test::ascii_bytes("raw member"), false}});
}

constexpr std::size_t kSecond = 16 + 32;  // the second entry

}  // namespace

TEST_CASE("corrupt FPK headers and tables", "[fpk][corrupt]") {
  const Bytes good = fixture();
  REQUIRE(archive.list(good).ok());
  SECTION("shorter than the header") { archive.expect_error(Bytes(good.begin(), good.begin() + 15), "FPK header of 16 bytes", 0); }
  SECTION("empty") { archive.expect_error({}, "FPK header of 16 bytes", 0); }
  SECTION("the entry table past the end") {
    Bytes b = good;
    put(b, 4, 1000);
    archive.expect_error(b, "entry table (1000 entries of 32 bytes) inside the", 4);
  }
  SECTION("the table cut by the file's end") {
    archive.expect_error(Bytes(good.begin(), good.begin() + 16 + 32 + 20), "inside the 68-byte FPK", 4);
  }
  SECTION("a negative entry count") {
    Bytes b = good;
    put(b, 4, 0x80000000);
    archive.expect_error(b, "entry count below 2^31", 4);
  }
  SECTION("more entries than the member cap") {
    ContainerLimits limits;
    limits.max_members = 1;
    archive.expect_error(good, "at most 1 entries (the member cap)", 4, limits);
  }
  SECTION("a table larger than the table cap") {
    ContainerLimits limits;
    limits.max_table_size = 63;
    archive.expect_error(good, "entry table of at most 63 bytes", 4, limits);
  }
  SECTION("an empty name: that entry is an error member named by its index") {
    Bytes b = good;
    b[kSecond] = std::byte{0};
    archive.expect_member_error(b, 2, 1, "entry name of at least one byte", kSecond);
    CHECK(archive.list(b).value().members[1].path == "#1");
  }
}

TEST_CASE("corrupt FPK entries are error members of their own, the other entry lists", "[fpk][corrupt]") {
  const Bytes good = fixture();
  SECTION("data offset inside the header and table") {
    Bytes b = good;
    put(b, kSecond + 0x14, 0x40);
    archive.expect_member_error(b, 2, 1, "data offset at or after the entry table's end 0x50", kSecond + 0x14);
  }
  SECTION("data offset past the end") {
    Bytes b = good;
    put(b, kSecond + 0x14, good.size() + 16);
    archive.expect_member_error(b, 2, 1, "inside the", kSecond + 0x18);
  }
  SECTION("data range past the end") {
    Bytes b = good;
    put(b, kSecond + 0x18, good.size());
    put(b, kSecond + 0x1C, good.size());
    archive.expect_member_error(b, 2, 1, "stored bytes at", kSecond + 0x18);
  }
  SECTION("data range ending one byte past the end") {
    Bytes b = good;
    const std::uint64_t offset = test::get(b, kSecond + 0x14, 4, BE);
    put(b, kSecond + 0x18, good.size() - offset + 1);
    archive.expect_member_error(b, 2, 1, "inside the", kSecond + 0x18);
  }
  SECTION("negative values") {
    for (const std::size_t field : {0x14u, 0x18u, 0x1Cu}) {
      Bytes b = good;
      put(b, kSecond + field, 0xFFFFFFF0);
      CAPTURE(field);
      archive.expect_member_error(b, 2, 1, "below 2^31 (GNTool reads it as a signed int)", kSecond + field);
    }
  }
  SECTION("uncompressed size over the member cap") {
    ContainerLimits limits;
    limits.max_member_size = 2999;
    archive.expect_member_error(good, 2, 0, "uncompressed size of at most 2999 bytes", 16 + 0x1C, limits);
    limits.max_member_size = 3000;
    CHECK(archive.list(good, limits).ok());
  }
  SECTION("the cap is for compressed members: a raw one is bounded by the file") {
    ContainerLimits limits;
    limits.max_member_size = 5;
    Bytes b = fixture();
    put(b, 16 + 0x1C, 4);  // the compressed entry now says 4 bytes: under the cap
    auto result = archive.list(b, limits);
    REQUIRE(result.ok());
    CHECK(result.value().members[1].compression == nullptr);
    CHECK(result.value().members[1].size == 10);
  }
  SECTION("a compressed member whose stream is bad still lists; decoding it fails") {
    Bytes b = good;
    const std::uint64_t offset = test::get(b, 16 + 0x14, 4, BE);
    b[offset] = std::byte{0x00};  // short copy before the output start
    auto result = archive.list(b);
    REQUIRE(result.ok());
    const Member& member = result.value().members[0];
    const auto decoded =
        prs_decompress(std::span<const std::byte>(b).subspan(member.offset, member.stored_size), member.size);
    test::expect_parse_error(decoded, "copy before the output start");
  }
}
