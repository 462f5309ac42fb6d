// .nds ROMs (containers.md section 3 ".nds ROM (NitroFS)"): the writer's layout, round trips with
// nested folders, overlays skipped, detection, warnings.
#include <catch2/catch.hpp>

#include <map>

#include "containers/container_test_support.h"
#include "containers/nds/nds_container.h"
#include "containers/nds/nds_writer.h"
#include "support/corrupt_input.h"

using namespace animdex;
using namespace animdex::nds;
using test::Bytes;

namespace {

std::uint64_t get(const Bytes& b, std::size_t at, int size) { return test::get(b, at, size, LE); }
void put(Bytes& b, std::size_t at, std::uint64_t value, int size) { test::put(b, at, value, size, LE); }
void fix_crc(Bytes& b) { put(b, 0x15E, nds_crc16(std::span(b).first(0x15E)), 2); }

Bytes filled(std::size_t size, int value) { return Bytes(size, static_cast<std::byte>(value)); }

Result<MemberList> list(const Bytes& bytes) {
  const MemorySource source{std::span<const std::byte>(bytes)};
  return list_nds({source, source, "test.nds"}, ContainerLimits{});
}

MemberList list_ok(const Bytes& bytes) {
  auto listed = list(bytes);
  INFO((listed.ok() ? std::string() : listed.error().message()));
  REQUIRE(listed.ok());
  return listed.value();
}

Bytes member_bytes(const Bytes& rom, const Member& member) {
  return Bytes(rom.begin() + static_cast<std::ptrdiff_t>(member.offset),
               rom.begin() + static_cast<std::ptrdiff_t>(member.offset + member.stored_size));
}

const std::vector<NdsFile> kFiles = {{"a.bin", filled(5, 1)},
                                     {"dir/b.bin", filled(600, 2)},
                                     {"dir/sub/c.bin", Bytes{}},
                                     {"z.bin", filled(3, 3)},
                                     {"dir/sub/deeper/d.nsbca", test::ascii_bytes("BCA0 pretend")}};

}  // namespace

TEST_CASE("build_nds: header fields and layout like ndstool's", "[nds]") {
  const Bytes rom = build_nds(kFiles, "ANIMDEX TEST", "ADXE");
  CHECK(std::string(reinterpret_cast<const char*>(rom.data()), 12) == "ANIMDEX TEST");
  CHECK(std::string(reinterpret_cast<const char*>(rom.data()) + 12, 4) == "ADXE");
  CHECK(get(rom, 0x84, 4) == 0x4000);
  CHECK(get(rom, 0x15C, 2) == 0xCF56);
  CHECK(get(rom, 0x15E, 2) == nds_crc16(std::span(rom).first(0x15E)));
  CHECK(get(rom, 0x80, 4) == rom.size());
  CHECK(get(rom, 0x20, 4) == 0x4000);  // ARM9 right after the header
  CHECK((128u * 1024 << get(rom, 0x14, 1)) >= rom.size());
  for (std::size_t field : {0x20u, 0x30u, 0x40u, 0x48u}) CHECK(get(rom, field, 4) % 0x200 == 0);
  CHECK(get(rom, 0x4C, 4) == 8 * kFiles.size());
  CHECK(rom[0x4004] == std::byte{0xFF});  // padding after the 4-byte ARM9 stub
}

TEST_CASE("build_nds round trip: nested folders, empty file, 0x200 alignment", "[nds]") {
  const Bytes rom = build_nds(kFiles);
  const auto listed = list_ok(rom);
  CHECK(listed.warnings.empty());
  // File IDs follow the FNT: root files, then directories breadth first.
  const std::vector<std::string> expected = {"a.bin", "z.bin", "dir/b.bin", "dir/sub/c.bin", "dir/sub/deeper/d.nsbca"};
  REQUIRE(listed.members.size() == expected.size());
  std::map<std::string, Bytes> by_path;
  for (const auto& file : kFiles) by_path[file.path] = file.bytes;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& member = listed.members[i];
    CHECK(member.path == expected[i]);
    CHECK(member.stored_name == expected[i]);
    CHECK(member.offset % 0x200 == 0);
    CHECK(member.size == member.stored_size);
    CHECK(member.compression == nullptr);
    CHECK(member.may_be_compressed);
    CHECK(member_bytes(rom, member) == by_path[expected[i]]);
  }
}

TEST_CASE("build_nds: an empty file system", "[nds]") {
  const auto listed = list_ok(build_nds({}));
  CHECK(listed.members.empty());
  CHECK(listed.warnings.empty());
}

TEST_CASE("overlays (IDs below the root's first file ID) are not listed", "[nds]") {
  NdsOptions options;
  options.arm9_overlays = {filled(40, 7), filled(20, 8)};
  const Bytes rom = build_nds(kFiles, options);
  CHECK(get(rom, 0x54, 4) == 2 * 32);
  CHECK(get(rom, get(rom, 0x50, 4) + 32 + 24, 4) == 1);  // overlay 1's file ID
  const auto listed = list_ok(rom);
  REQUIRE(listed.members.size() == kFiles.size());
  CHECK(listed.members[0].path == "a.bin");
  CHECK(member_bytes(rom, listed.members[0]) == filled(5, 1));
  REQUIRE(listed.warnings.size() == 1);
  CHECK_THAT(listed.warnings[0], Catch::Contains("2 files below the root's first file ID 2 (overlays"));
}

TEST_CASE("build_nds refuses what a header cannot hold", "[nds]") {
  CHECK_THROWS_AS(build_nds({}, "THIRTEEN BYTE", "ADXE"), std::invalid_argument);
  CHECK_THROWS_AS(build_nds({}, "T", "ADX"), std::invalid_argument);
  CHECK_THROWS_AS(build_nds({{"a//b", {}}}), std::invalid_argument);
}

TEST_CASE("detect_nds: strict on the header", "[nds]") {
  const Bytes rom = build_nds(kFiles);
  CHECK(detect_nds(rom, rom.size()));
  CHECK(container_module().id == "nds");
  CHECK(container_module().detect(rom, rom.size()));
  CHECK(detect_nds(std::span(rom).first(0x160), rom.size()));
  CHECK_FALSE(detect_nds(std::span(rom).first(0x15F), rom.size()));
  CHECK_FALSE(detect_nds(rom, 0x1FF));
  CHECK_FALSE(detect_nds(Bytes(0x8800, std::byte{0}), 0x8800));
  CHECK_FALSE(detect_nds(Bytes(0x8800, std::byte{0xFF}), 0x8800));
  const std::vector<std::pair<std::size_t, std::uint32_t>> breaks = {
      {0x84, 0x200},  {0x15C, 0x1234},                        // header size, logo CRC
      {0x40, 0x100},  {0x44, 4},  {0x44, 0x10000000},         // FNT before 0x200, too small, past the end
      {0x48, 0x1FF},  {0x4C, 12}, {0x4C, 0x10000000},         // FAT before 0x200, not 8k, past the end
  };
  for (const auto& [field, value] : breaks) {
    INFO("field " << field);
    Bytes broken = rom;
    put(broken, field, value, field == 0x15C ? 2 : 4);
    CHECK_FALSE(detect_nds(broken, broken.size()));
    CHECK_FALSE(list(broken).ok());  // what detect refuses, list refuses too
  }
  // The ROM's own size counts, not the head's: tables past the head are fine if inside the file.
  CHECK(detect_nds(std::span(rom).first(0x200), rom.size()));
  CHECK_FALSE(detect_nds(std::span(rom).first(0x200), get(rom, 0x48, 4)));
}

TEST_CASE("NDS warnings: header CRC, used ROM size, unused FAT entries", "[nds]") {
  SECTION("header CRC") {
    Bytes rom = build_nds(kFiles);
    rom[0] = std::byte{'X'};
    const auto listed = list_ok(rom);
    REQUIRE(listed.warnings.size() == 1);
    CHECK_THAT(listed.warnings[0], Catch::Contains("header CRC"));
    CHECK(listed.members.size() == kFiles.size());
  }
  SECTION("used ROM size past the file") {
    Bytes rom = build_nds(kFiles);
    put(rom, 0x80, rom.size() + 0x200, 4);
    fix_crc(rom);
    const auto listed = list_ok(rom);
    REQUIRE(listed.warnings.size() == 1);
    CHECK_THAT(listed.warnings[0], Catch::Contains("used ROM size"));
  }
  SECTION("a named file whose FAT entry is 0/0 is skipped") {
    Bytes rom = build_nds(kFiles);
    const std::size_t fat = get(rom, 0x48, 4);
    put(rom, fat + 8, 0, 4);
    put(rom, fat + 12, 0, 4);
    const auto listed = list_ok(rom);
    REQUIRE(listed.members.size() == kFiles.size() - 1);
    CHECK(listed.members[1].path == "dir/b.bin");
    REQUIRE(listed.warnings.size() == 1);
    CHECK_THAT(listed.warnings[0], Catch::Contains("z.bin: FAT entry 1 is unused"));
  }
}
