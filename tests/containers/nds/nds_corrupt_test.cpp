// One crafted corrupt .nds per validation rule of containers.md section 3 ".nds ROM (NitroFS)" and
// of detection (nds/NOTES.md): the message and the offset.
#include <catch2/catch.hpp>

#include "containers/container_test_support.h"
#include "containers/nds/nds_container.h"
#include "containers/nds/nds_writer.h"
#include "support/corrupt_container.h"

using namespace animdex;
using namespace animdex::nds;
using test::Bytes;

namespace {

const test::CorruptContainer archive{list_nds, "corrupt.nds"};

std::uint64_t get(const Bytes& b, std::size_t at, int size) { return test::get(b, at, size, LE); }
void put(Bytes& b, std::size_t at, std::uint64_t value, int size) { test::put(b, at, value, size, LE); }

// IDs: a.bin 0, z.bin 1 (root), dir/b.bin 2 (0xF001), dir/sub/c.bin 3 (0xF002).
Bytes fixture() {
  return build_nds({{"a.bin", Bytes(5, std::byte{1})},
                    {"dir/b.bin", Bytes(9, std::byte{2})},
                    {"dir/sub/c.bin", Bytes(3, std::byte{3})},
                    {"z.bin", Bytes(2, std::byte{4})}});
}

std::size_t fnt_at(const Bytes& b) { return get(b, 0x40, 4); }
std::size_t fat_at(const Bytes& b) { return get(b, 0x48, 4); }

}  // namespace

TEST_CASE("corrupt NDS headers", "[nds][corrupt]") {
  const Bytes good = fixture();
  REQUIRE(archive.list(good).ok());
  SECTION("shorter than the header's 0x200 bytes") {
    archive.expect_error(Bytes(good.begin(), good.begin() + 0x1FF), "an NDS header of 0x200 bytes", 0);
  }
  SECTION("header size") {
    Bytes b = good;
    put(b, 0x84, 0x200, 4);
    archive.expect_error(b, "header size 0x4000", 0x84);
  }
  SECTION("logo CRC") {
    Bytes b = good;
    put(b, 0x15C, 0, 2);
    archive.expect_error(b, "the Nintendo logo CRC 0xCF56", 0x15C);
  }
  SECTION("FNT inside the header") {
    Bytes b = good;
    put(b, 0x40, 0x1FC, 4);
    archive.expect_error(b, "the FNT offset at or after the 0x200-byte header", 0x40);
  }
  SECTION("FNT offset past the ROM") {
    Bytes b = good;
    put(b, 0x40, b.size() + 1, 4);
    archive.expect_error(b, "the FNT offset inside the", 0x40);
  }
  SECTION("FNT smaller than the root entry") {
    Bytes b = good;
    put(b, 0x44, 7, 4);
    archive.expect_error(b, "the FNT size of at least 8 bytes", 0x44);
  }
  SECTION("FNT running past the ROM") {
    Bytes b = good;
    put(b, 0x44, b.size() - fnt_at(b) + 1, 4);
    archive.expect_error(b, "the FNT to end inside the", 0x44);
  }
  SECTION("FAT inside the header") {
    Bytes b = good;
    put(b, 0x48, 0, 4);
    archive.expect_error(b, "the FAT offset at or after the 0x200-byte header", 0x48);
  }
  SECTION("FAT size not a multiple of 8") {
    Bytes b = good;
    put(b, 0x4C, 8 * 4 + 4, 4);
    archive.expect_error(b, "the FAT size as a multiple of 8", 0x4C);
  }
  SECTION("FAT running past the ROM") {
    Bytes b = good;
    put(b, 0x48, b.size() - 8, 4);
    archive.expect_error(b, "the FAT to end inside the", 0x4C);
  }
}

TEST_CASE("corrupt NDS FAT entries and file IDs", "[nds][corrupt]") {
  const Bytes good = fixture();
  SECTION("start after end") {
    Bytes b = good;
    put(b, fat_at(b) + 8 * 2, get(b, fat_at(b) + 8 * 2 + 4, 4) + 1, 4);
    archive.expect_error(b, "a FAT start at most its end", fat_at(b) + 8 * 2);
  }
  SECTION("end past the ROM: listed with a warning (its own row fails), not the whole table") {
    Bytes b = good;
    put(b, fat_at(b) + 8 * 3 + 4, b.size() + 1, 4);
    const auto listed = archive.list(b);
    REQUIRE(listed.ok());
    REQUIRE(listed.value().warnings.size() >= 1);
    CHECK(listed.value().warnings.back().find("past a FAT end inside the") != std::string::npos);
  }
  SECTION("a named file ID past the FAT's entries") {
    Bytes b = good;
    put(b, 0x4C, 8 * 3, 4);  // drop c.bin's entry (ID 3)
    const std::size_t c_record = fnt_at(b) + get(b, fnt_at(b) + 16, 4);  // 0xF002's sub-table
    archive.expect_error(b, "a file ID below the 3 files of the allocation table", c_record);
  }
  SECTION("FNT rules apply with ROM offsets: directory count 0") {
    Bytes b = good;
    put(b, fnt_at(b) + 6, 0, 2);
    archive.expect_error(b, "a directory count D >= 1", fnt_at(b) + 6);
  }
  SECTION("FNT rules apply with ROM offsets: a cycle") {
    Bytes b = good;
    const std::size_t dir_record = fnt_at(b) + get(b, fnt_at(b), 4) + 6;  // root: [05 "a.bin"] [83 "dir" ID]
    REQUIRE(get(b, dir_record, 1) == 0x83);
    put(b, dir_record + 4, 0xF000, 2);
    archive.expect_error(b, "each directory listed once", dir_record + 4);
  }
}

TEST_CASE("NDS caps: FAT entries and table sizes", "[nds][corrupt][caps]") {
  const Bytes good = fixture();
  ContainerLimits limits;
  limits.max_members = 3;
  archive.expect_error(good, "at most 3 files in the FAT", 0x4C, limits);
  limits = {};
  limits.max_table_size = 16;
  archive.expect_error(good, "the FAT within 16 bytes", 0x4C, limits);
  limits.max_table_size = 32;
  REQUIRE(get(good, 0x44, 4) > 32);
  archive.expect_error(good, "the FNT within 32 bytes", 0x44, limits);
}
