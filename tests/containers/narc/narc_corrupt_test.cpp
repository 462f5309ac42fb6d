// One crafted corrupt NARC per validation rule of containers.md section 3 "NARC" (and of the FNT
// walker, through a named archive's BTNF): the message and the offset; the warn-only cases list.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "containers/container_test_support.h"
#include "containers/narc/narc_container.h"
#include "containers/narc/narc_writer.h"
#include "support/corrupt_container.h"

using namespace animdex;
using namespace animdex::narc;
using test::Bytes;

namespace {

const test::CorruptContainer archive{list_narc, "corrupt.narc"};

std::uint64_t get(const Bytes& b, std::size_t at, int size) { return test::get(b, at, size, LE); }
void put(Bytes& b, std::size_t at, std::uint64_t value, int size) { test::put(b, at, value, size, LE); }

// A broken FNT rule costs only the names it spoils: every BTAF file is listed, and a warning names
// the rule and its offset.
MemberList expect_fnt_fault(const Bytes& bytes, const std::string& text, std::uint64_t offset) {
  const auto listed = archive.list(bytes);
  REQUIRE(listed.ok());
  CHECK(listed.value().members.size() == 3);
  const auto prefix = fmt::format("at offset 0x{:X}: expected ", offset);
  bool found = false;
  for (const auto& warning : listed.value().warnings)
    found = found || (warning.find(prefix) != std::string::npos && warning.find(text) != std::string::npos);
  INFO(prefix << text);
  for (const auto& warning : listed.value().warnings) INFO(warning);
  CHECK(found);
  return listed.value();
}

// Chunk positions of an archive (read from its own fields).
constexpr std::size_t kBtaf = 0x10;
std::size_t btnf_at(const Bytes& b) { return kBtaf + get(b, kBtaf + 4, 4); }
std::size_t fnt_at(const Bytes& b) { return btnf_at(b) + 8; }
std::size_t gmif_at(const Bytes& b) { return btnf_at(b) + get(b, btnf_at(b) + 4, 4); }

Bytes nameless_fixture() {
  return build_narc({{"", Bytes(5, std::byte{1})}, {"", Bytes(8, std::byte{2})}, {"", Bytes(3, std::byte{3})}}, false);
}

// FNT (relative): directory table 3 x 8 bytes; root sub-table at 24: [05 "a.bin"] [83 "dir" 01 F0] [00];
// 0xF001 at 37: [05 "b.bin"] [83 "sub" 02 F0] [00]; 0xF002 at 50: [05 "c.bin"] [00]; 57 bytes, padded to 60.
Bytes named_fixture() {
  return build_narc({{"a.bin", Bytes(5, std::byte{1})}, {"dir/b.bin", Bytes(8, std::byte{2})},
                     {"dir/sub/c.bin", Bytes(3, std::byte{3})}},
                    true);
}

}  // namespace

TEST_CASE("the NARC fixtures are what the corrupt tests assume", "[narc][corrupt]") {
  const Bytes named = named_fixture();
  const std::size_t fnt = fnt_at(named);
  CHECK(get(named, fnt, 4) == 24);
  CHECK(get(named, fnt + 6, 2) == 3);
  CHECK(get(named, fnt + 24, 1) == 5);
  CHECK(get(named, fnt + 30, 1) == 0x83);
  CHECK(get(named, fnt + 34, 2) == 0xF001);
  CHECK(get(named, fnt + 8, 4) == 37);
  CHECK(get(named, fnt + 47, 2) == 0xF002);
  CHECK(get(named, fnt + 16, 4) == 50);
  CHECK(get(named, btnf_at(named) + 4, 4) == 8 + 60);
  CHECK(get(named, fnt + 57, 3) == 0xFFFFFF);  // BTNF padding to 4 with 0xFF
  REQUIRE(archive.list(named).ok());
  REQUIRE(archive.list(nameless_fixture()).ok());
}

TEST_CASE("corrupt NARC headers and chunks", "[narc][corrupt]") {
  const Bytes good = nameless_fixture();
  SECTION("shorter than the header") { archive.expect_error(Bytes(good.begin(), good.begin() + 15), "a NARC header of 16 bytes", 0); }
  SECTION("magic") {
    Bytes b = good;
    b[0] = std::byte{'X'};
    archive.expect_error(b, "magic NARC", 0);
  }
  SECTION("byte-order mark") {
    Bytes b = good;
    put(b, 4, 0xFEFF, 2);
    archive.expect_error(b, "byte-order mark FE FF", 4);
  }
  SECTION("declared file size past the real length") {
    Bytes b = good;
    put(b, 8, b.size() + 1, 4);
    archive.expect_error(b, "a file size at most the real length", 8);
  }
  SECTION("header size") {
    Bytes b = good;
    put(b, 0x0C, 0x14, 2);
    archive.expect_error(b, "header size 16", 0x0C);
  }
  SECTION("chunk count") {
    Bytes b = good;
    put(b, 0x0E, 2, 2);
    archive.expect_error(b, "3 chunks (BTAF, BTNF, GMIF)", 0x0E);
  }
  SECTION("BTAF tag") {
    Bytes b = good;
    b[kBtaf] = std::byte{'X'};
    archive.expect_error(b, "chunk BTAF", kBtaf);
  }
  SECTION("BTAF size below its fixed 12 bytes") {
    Bytes b = good;
    put(b, kBtaf + 4, 8, 4);
    archive.expect_error(b, "a BTAF chunk size of at least 12", kBtaf + 4);
  }
  SECTION("BTAF size not 12 + 8F") {
    Bytes b = good;
    put(b, kBtaf + 4, 12 + 8 * 3 + 4, 4);
    archive.expect_error(b, "a BTAF chunk size of 12 + 8 x 3 files = 36", kBtaf + 4);
  }
  SECTION("BTAF file count not matching its size") {
    Bytes b = good;
    put(b, kBtaf + 8, 2, 2);
    archive.expect_error(b, "a BTAF chunk size of 12 + 8 x 2 files = 28", kBtaf + 4);
  }
  SECTION("BTAF running past the file") {
    Bytes b = good;
    put(b, kBtaf + 4, b.size(), 4);
    archive.expect_error(b, "a BTAF chunk that ends inside the", kBtaf + 4);
  }
  SECTION("BTNF tag") {
    Bytes b = good;
    b[btnf_at(b) + 3] = std::byte{0};
    archive.expect_error(b, "chunk BTNF", btnf_at(b));
  }
  SECTION("BTNF too small for the FNT's root entry") {
    Bytes b = good;
    put(b, btnf_at(b) + 4, 12, 4);
    archive.expect_error(b, "a BTNF chunk size of at least 16", btnf_at(b) + 4);
  }
  SECTION("BTNF running past the file") {
    Bytes b = good;
    put(b, btnf_at(b) + 4, b.size(), 4);
    archive.expect_error(b, "a BTNF chunk that ends inside the", btnf_at(b) + 4);
  }
  SECTION("GMIF tag") {
    Bytes b = good;
    b[gmif_at(b)] = std::byte{'g'};
    archive.expect_error(b, "chunk GMIF", gmif_at(b));
  }
  SECTION("GMIF running past the file") {
    Bytes b = good;
    put(b, gmif_at(b) + 4, get(b, gmif_at(b) + 4, 4) + 1, 4);
    archive.expect_error(b, "a GMIF chunk that ends inside the", gmif_at(b) + 4);
  }
  SECTION("GMIF header cut off") {
    const Bytes b(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(gmif_at(good) + 4));
    Bytes patched = b;
    put(patched, 8, patched.size(), 4);
    archive.expect_error(patched, "the GMIF chunk header (8 bytes) inside the", gmif_at(good));
  }
}

TEST_CASE("corrupt NARC member ranges are error members of their own", "[narc][corrupt]") {
  const Bytes good = nameless_fixture();
  const std::size_t entry1 = kBtaf + 12 + 8;
  SECTION("start after end") {
    Bytes b = good;
    put(b, entry1, get(b, entry1 + 4, 4) + 1, 4);
    archive.expect_member_error(b, 3, 1, "a member start at most its end", entry1);
  }
  SECTION("end past the GMIF data") {
    Bytes b = good;
    put(b, entry1 + 4, get(b, gmif_at(b) + 4, 4) - 8 + 1, 4);
    archive.expect_member_error(b, 3, 1, "a member end inside the GMIF's 20 data bytes", entry1 + 4);
  }
  SECTION("end exactly at the GMIF data end is fine") {
    Bytes b = good;
    put(b, entry1 + 4, get(b, gmif_at(b) + 4, 4) - 8, 4);
    CHECK(archive.list(b).ok());
  }
}

TEST_CASE("corrupt NARC BTNF: each FNT rule is a warning, every file still lists", "[narc][corrupt][fnt]") {
  const Bytes good = named_fixture();
  const std::size_t fnt = fnt_at(good);
  SECTION("directory count 0") {
    Bytes b = good;
    put(b, fnt + 6, 0, 2);
    expect_fnt_fault(b, "a directory count D >= 1", fnt + 6);
  }
  SECTION("more than 4096 directories") {
    Bytes b = good;
    put(b, fnt + 6, 0x1001, 2);
    expect_fnt_fault(b, "at most 4096 directories", fnt + 6);
  }
  SECTION("directory table past the FNT") {
    Bytes b = good;
    put(b, fnt + 6, 8, 2);
    expect_fnt_fault(b, "a directory table of 8*D bytes inside the FNT's 60 bytes", fnt + 6);
  }
  SECTION("sub-table offset past the FNT") {
    Bytes b = good;
    put(b, fnt + 8, 60, 4);
    expect_fnt_fault(b, "a sub-table offset inside the FNT's 60 bytes", fnt + 8);
  }
  SECTION("reserved record type 0x80") {
    Bytes b = good;
    put(b, fnt + 24, 0x80, 1);
    expect_fnt_fault(b, "0x80 is reserved", fnt + 24);
  }
  SECTION("name past the FNT") {
    Bytes b = good;
    put(b, fnt + 50, 0x7F, 1);
    expect_fnt_fault(b, "a 127-byte name inside the FNT's 60 bytes", fnt + 50);
  }
  SECTION("sub-table without its 0x00 end") {
    Bytes b = good;
    // c.bin's sub-table: make its name long enough to reach the FNT end exactly (60 = 50 + 1 + 9).
    put(b, fnt + 50, 9, 1);
    b[fnt + 56] = std::byte{'x'};  // the old end byte becomes part of the name
    expect_fnt_fault(b, "a sub-table record or its 0x00 end", fnt + 60);
  }
  SECTION("name with a '/'") {
    Bytes b = good;
    b[fnt + 26] = std::byte{'/'};
    expect_fnt_fault(b, "a file or directory name without '/' or NUL", fnt + 25);
  }
  SECTION("name \"..\"") {
    Bytes b = good;
    put(b, fnt + 30, 0x82, 1);  // "dir" -> "di", then the ID would be read from "r" + 0x01
    b[fnt + 31] = std::byte{'.'};
    b[fnt + 32] = std::byte{'.'};
    expect_fnt_fault(b, "not \".\" or \"..\"", fnt + 31);
  }
  SECTION("child directory ID past D") {
    Bytes b = good;
    put(b, fnt + 34, 0xF003, 2);
    expect_fnt_fault(b, "a child directory ID in 0xF000-0xF002", fnt + 34);
  }
  SECTION("child directory ID below 0xF000") {
    Bytes b = good;
    put(b, fnt + 34, 0x0001, 2);
    expect_fnt_fault(b, "a child directory ID in 0xF000-0xF002", fnt + 34);
  }
  SECTION("a directory inside itself (cycle)") {
    Bytes b = good;
    put(b, fnt + 47, 0xF001, 2);
    expect_fnt_fault(b, "each directory listed once", fnt + 47);
  }
  SECTION("the root as a child") {
    Bytes b = good;
    put(b, fnt + 47, 0xF000, 2);
    expect_fnt_fault(b, "each directory listed once", fnt + 47);
  }
  SECTION("child ID cut off by the FNT end") {
    Bytes b = good;
    // c.bin's record as a directory whose 2-byte ID would start at the FNT end (50 + 1 + 9 = 60).
    put(b, fnt + 50, 0x89, 1);
    b[fnt + 56] = std::byte{'x'};
    expect_fnt_fault(b, "a 2-byte child directory ID", fnt + 60);
  }
  SECTION("file ID past the BTAF count") {
    Bytes b = good;
    put(b, fnt + 4, 3, 2);
    expect_fnt_fault(b, "a file ID below the 3 files of the allocation table", fnt + 24);
  }
  SECTION("one file ID named twice") {
    Bytes b = good;
    put(b, fnt + 8 + 4, 0, 2);  // 0xF001's first file ID 0: b.bin collides with a.bin
    expect_fnt_fault(b, "each file ID named once", fnt + 37);
  }
}

TEST_CASE("NARC caps: members and table size", "[narc][corrupt][caps]") {
  const Bytes good = nameless_fixture();
  ContainerLimits limits;
  limits.max_members = 2;
  archive.expect_error(good, "at most 2 members", kBtaf + 8, limits);
  limits = {};
  limits.max_table_size = gmif_at(good) + 7;
  archive.expect_error(good, "bytes of header, BTAF and BTNF", btnf_at(good) + 4, limits);
  limits.max_table_size = gmif_at(good) + 8;
  CHECK(archive.list(good, limits).ok());
}

TEST_CASE("NARC warnings: version, trailing bytes, unnamed files", "[narc]") {
  SECTION("another version lists with a warning") {
    Bytes b = nameless_fixture();
    put(b, 6, 0x0200, 2);
    auto listed = archive.list(b);
    REQUIRE(listed.ok());
    REQUIRE(listed.value().warnings.size() == 1);
    CHECK_THAT(listed.value().warnings[0], Catch::Contains("version 0x0200"));
  }
  SECTION("bytes after the declared size") {
    Bytes b = nameless_fixture();
    b.push_back(std::byte{0});
    auto listed = archive.list(b);
    REQUIRE(listed.ok());
    REQUIRE(listed.value().warnings.size() == 1);
    CHECK_THAT(listed.value().warnings[0], Catch::Contains("1 trailing bytes"));
  }
  SECTION("a file the FNT leaves unnamed keeps its index") {
    Bytes b = named_fixture();
    put(b, fnt_at(b) + 16 + 4, 1, 2);  // 0xF002's c.bin gets ID 1 ... (b.bin keeps 1 too: collision)
    const auto collided = archive.list(b);
    REQUIRE(collided.ok());  // the first name stays; file 2 is then nameless
    CHECK(collided.value().members[1].path == "dir/b.bin");
    CHECK(collided.value().members[2].path == "2");
    b = named_fixture();
    put(b, fnt_at(b) + 50, 0, 1);  // 0xF002's sub-table empty: file 2 has no name
    auto listed = archive.list(b);
    REQUIRE(listed.ok());
    REQUIRE(listed.value().members.size() == 3);
    CHECK(listed.value().members[2].path == "2");
    CHECK(listed.value().members[1].path == "dir/b.bin");
    REQUIRE(listed.value().warnings.size() == 1);
    CHECK_THAT(listed.value().warnings[0], Catch::Contains("1 of 3 files have no name"));
  }
}

TEST_CASE("a broken entry and a bad name beside good files lose only themselves", "[narc][corrupt]") {
  // Issue 35: either one failed the whole archive, and its good members were lost.
  Bytes b = named_fixture();
  const std::size_t fnt = fnt_at(b);
  b[fnt + 26] = std::byte{0};  // "a.bin" -> "a\0bin"
  const std::size_t entry1 = kBtaf + 12 + 8;
  put(b, entry1, get(b, entry1 + 4, 4) + 1, 4);  // dir/b.bin: start after end
  const auto listed = archive.list(b);
  REQUIRE(listed.ok());
  const auto& members = listed.value().members;
  REQUIRE(members.size() == 3);
  CHECK(members[0].path == std::string("a\0bin", 5));  // list_container shows it as a\x00bin
  CHECK_FALSE(members[0].error);
  CHECK(members[1].path == "dir/b.bin");
  REQUIRE(members[1].error);
  CHECK(members[1].error->offset == entry1);
  CHECK(members[2].path == "dir/sub/c.bin");
  CHECK_FALSE(members[2].error);
}
