// ISO9660 (containers.md section 5): writer round trips with nested folders, what the listing reads,
// descriptor sets, offsets past 4 GiB, names, and the warn-only rules.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <map>
#include <random>

#include "containers/container_test_support.h"
#include "containers/iso9660/iso9660_container.h"
#include "containers/iso9660/iso9660_writer.h"
#include "containers/iso9660/iso_records.h"
#include "containers/iso9660/sparse_source.h"

using namespace animdex;
using namespace animdex::iso9660;
using Bytes = std::vector<std::byte>;
using animdex::test::SparseSource;
namespace iso = animdex::test::iso;

namespace {

Bytes pattern(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  Bytes out(count);
  for (auto& b : out) b = static_cast<std::byte>(rng());
  return out;
}

std::vector<IsoFile> sample_files() {
  std::vector<IsoFile> files = {
      {"SYSTEM.CNF", test::ascii_bytes("BOOT2 = cdrom0:\\SLUS_210.05;1\r\n")},
      {"KH2.IDX", pattern(4 + 16 * 3, 1)},
      {"DIR/FILE.BIN", pattern(5000, 2)},
      {"DIR/SUB/DEEP.DAT", pattern(1, 3)},
      {"README", pattern(3000, 4)},
      {"EMPTY.BIN", {}},
      {"A/B/C/D/E/F/G/LEVEL8.BIN", pattern(2048, 5)},  // G is level 8, the deepest allowed
  };
  for (int i = 0; i < 150; ++i)  // ~3 sectors of records: records must not cross sectors
    files.push_back({"MANY/A_RATHER_LONG_FILE_NAME_" + std::to_string(1000 + i) + ".BIN", pattern(10 + i, 100 + i)});
  return files;
}

Result<MemberList> list(const ByteSource& image, const ContainerLimits& limits = {}) {
  return list_iso9660({image, image, "disc.iso"}, limits);
}

Result<MemberList> list(const Bytes& image, const ContainerLimits& limits = {}) {
  const MemorySource source(image);
  return list(source, limits);
}

std::map<std::string, Member> by_path(const MemberList& listed) {
  std::map<std::string, Member> members;
  for (const auto& member : listed.members) members[member.path] = member;
  return members;
}

bool has_warning(const MemberList& listed, const std::string& text) {
  for (const auto& warning : listed.warnings)
    if (warning.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("ISO9660: writer round trip with nested folders", "[iso9660]") {
  const auto files = sample_files();
  const Bytes image = build_iso9660(files, "KH2_TEST");
  REQUIRE(image.size() % kSectorSize == 0);
  CHECK(detect_iso9660(std::span(image).first(kContainerDetectBytes), image.size()));
  auto listed = list(image);
  REQUIRE(listed.ok());
  INFO(Catch::rangeToString(listed.value().warnings));
  CHECK(listed.value().warnings.empty());
  REQUIRE(listed.value().members.size() == files.size());
  const auto members = by_path(listed.value());
  for (const auto& file : files) {
    INFO(file.path);
    REQUIRE(members.count(file.path) == 1);
    const Member& member = members.at(file.path);
    CHECK(member.size == file.bytes.size());
    CHECK(member.stored_size == file.bytes.size());
    CHECK(member.compression == nullptr);
    CHECK(member.offset % kSectorSize == 0);
    CHECK(std::equal(file.bytes.begin(), file.bytes.end(), image.begin() + static_cast<std::ptrdiff_t>(member.offset)));
  }
  CHECK(members.at("KH2.IDX").stored_name == "KH2.IDX;1");
  CHECK(members.at("DIR/SUB/DEEP.DAT").stored_name == "DIR/SUB/DEEP.DAT;1");
  CHECK(members.at("README").stored_name == "README.;1");
  CHECK(members.at("DIR/FILE.BIN").offset == iso::find_record(image, "DIR/FILE.BIN;1").extent * 2048);
  // The volume identifier and the both-endian block size as written.
  CHECK(std::string(reinterpret_cast<const char*>(image.data()) + 0x8028, 8) == "KH2_TEST");
  CHECK(test::get(image, 0x8080, 2, LE) == 2048);
  CHECK(test::get(image, 0x8082, 2, BE) == 2048);
  CHECK(test::get(image, 0x8050, 4, LE) * 2048 == image.size());
}

TEST_CASE("ISO9660: listing reads descriptors and directories, never file data", "[iso9660]") {
  std::vector<IsoFile> files = {{"BIG/KH2.IMG", pattern(3 << 20, 9)}, {"BIG/KH2.IDX", pattern(52, 10)}};
  const Bytes image = build_iso9660(files);
  const SparseSource source(image);
  auto listed = list(source);
  REQUIRE(listed.ok());
  CHECK(listed.value().members.size() == 2);
  // Sector 16 and 17 heads (7 bytes each), the primary descriptor, the root and BIG directories.
  CHECK(source.bytes_read == 7 + 7 + 2048 + 2048 + 2048);
}

TEST_CASE("ISO9660: an offset past 4 GiB is computed in 64 bits", "[iso9660]") {
  Bytes image = build_iso9660({{"DATA/FAR.BIN", pattern(100, 11)}});
  const auto record = iso::find_record(image, "DATA/FAR.BIN;1");
  iso::put_both(image, record.at + 2, 0x300000, 4);
  const SparseSource source(image, 0x300000ULL * 2048 + 4096);
  auto listed = list(source);
  REQUIRE(listed.ok());
  REQUIRE(listed.value().members.size() == 1);
  CHECK(listed.value().members[0].offset == 0x180000000ULL);
  CHECK(listed.value().members[0].size == 100);
}

TEST_CASE("ISO9660: an extended attribute record moves the data", "[iso9660]") {
  Bytes image = build_iso9660({{"X.BIN", pattern(10, 12)}});
  const auto record = iso::find_record(image, "X.BIN;1");
  test::put(image, record.at + 1, 1, 1, LE);
  image.resize(image.size() + 2048);
  auto listed = list(image);
  REQUIRE(listed.ok());
  CHECK(listed.value().members.at(0).offset == (record.extent + 1) * 2048);
}

TEST_CASE("ISO9660: descriptor sets", "[iso9660]") {
  const Bytes plain = build_iso9660({{"F.BIN", pattern(10, 13)}});
  SECTION("a supplementary (Joliet) or boot descriptor before the primary") {
    for (int first_type : {kSupplementary, kBootRecord}) {
      Bytes image = plain;
      // Sector 16 -> 17 (the primary), the terminator -> 18 (over the L path table, which is not read).
      std::copy(image.begin() + 0x8800, image.begin() + 0x9000, image.begin() + 0x9000);
      std::copy(image.begin() + 0x8000, image.begin() + 0x8800, image.begin() + 0x8800);
      test::put(image, 0x8000, static_cast<std::uint64_t>(first_type), 1, LE);
      CHECK(detect_iso9660(image, image.size()) == (first_type == kSupplementary));
      auto listed = list(image);
      REQUIRE(listed.ok());
      CHECK(listed.value().members.at(0).path == "F.BIN");
    }
  }
  SECTION("detection") {
    CHECK(detect_iso9660(plain, plain.size()));
    CHECK_FALSE(detect_iso9660(std::span(plain).first(0x8005), plain.size()));  // head too short
    Bytes no_id = plain;
    no_id[0x8003] = std::byte{'X'};
    CHECK_FALSE(detect_iso9660(no_id, no_id.size()));
    Bytes terminator_first = plain;
    terminator_first[0x8000] = std::byte{255};
    CHECK_FALSE(detect_iso9660(terminator_first, terminator_first.size()));
    const auto module = container_module();
    CHECK(module.id == "iso9660");
    CHECK(module.companion_extension.empty());
    CHECK(module.required_extension.empty());
  }
}

TEST_CASE("ISO9660: names", "[iso9660]") {
  CHECK(strip_version("KH2.IDX;1") == "KH2.IDX");
  CHECK(strip_version("FILE.BIN;12") == "FILE.BIN");
  CHECK(strip_version("README.;1") == "README");
  CHECK(strip_version("DIR") == "DIR");
  CHECK(strip_version("A;B") == "A;B");  // not a version
  CHECK(strip_version("lower.txt;1") == "lower.txt");
}

TEST_CASE("ISO9660: warn-only rules", "[iso9660]") {
  const std::vector<IsoFile> files = {{"DIR/ONE.BIN", pattern(10, 20)}, {"DIR/TWO.BIN", pattern(20, 21)},
                                      {"DIR/THREE.BIN", pattern(30, 22)}, {"ZZZ/LAST.BIN", pattern(5000, 23)}};  // LAST.BIN placed last
  const Bytes good = build_iso9660(files);
  SECTION("both-endian copies disagreeing: the little-endian copy wins") {
    Bytes image = good;
    const auto record = iso::find_record(image, "DIR/TWO.BIN;1");
    test::put(image, record.at + 14, 21, 4, BE);
    auto listed = list(image);
    REQUIRE(listed.ok());
    CHECK(by_path(listed.value()).at("DIR/TWO.BIN").size == 20);
    CHECK(has_warning(listed.value(), fmt::format("a record's data length at offset {:#x}: little-endian 20 and big-endian 21 disagree", record.at + 10)));
  }
  SECTION("a trimmed image: files past its end are left out") {
    const auto last = iso::find_record(good, "ZZZ/LAST.BIN;1");
    const Bytes image(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(last.extent * 2048 + 4096));
    auto listed = list(image);
    REQUIRE(listed.ok());
    CHECK(listed.value().members.size() == 3);
    CHECK(has_warning(listed.value(), "a trimmed image"));
    CHECK(has_warning(listed.value(), fmt::format("\"ZZZ/LAST.BIN\" (record at offset {:#x}) left out: bytes", last.at)));
  }
  SECTION("a multi-extent file is refused, all its records skipped") {
    Bytes image = good;
    const auto first = iso::find_record(image, "DIR/ONE.BIN;1");
    const auto second = iso::find_record(image, "DIR/THREE.BIN;1");  // sorted: ONE, THREE, TWO
    test::put(image, first.at + 25, 0x80, 1, LE);
    // Make THREE.BIN the second extent of ONE.BIN: same name (of the same length), flag bit 7 clear.
    const std::string renamed = "one.bin;1";
    REQUIRE(test::get(image, second.at + 32, 1, LE) == 11);
    test::put(image, second.at + 32, renamed.size(), 1, LE);
    for (std::size_t i = 0; i < renamed.size(); ++i) image[second.at + 33 + i] = static_cast<std::byte>(renamed[i]);
    auto listed = list(image);
    REQUIRE(listed.ok());
    INFO(Catch::rangeToString(listed.value().warnings));
    const auto members = by_path(listed.value());
    CHECK(members.size() == 2);
    CHECK(members.count("DIR/TWO.BIN") == 1);
    CHECK(has_warning(listed.value(), fmt::format("\"DIR/ONE.BIN\" (record at offset {:#x}) left out: a multi-extent file", first.at)));
    CHECK(listed.value().warnings.size() == 1);
  }
  SECTION("a name that cannot be a path component") {
    Bytes image = good;
    const auto record = iso::find_record(image, "DIR/TWO.BIN;1");
    image[record.at + 33 + 1] = std::byte{'/'};
    auto listed = list(image);
    REQUIRE(listed.ok());
    CHECK(listed.value().members.size() == 3);
    CHECK(has_warning(listed.value(), fmt::format("(record at offset {:#x}) left out: the name holds '/'", record.at)));
  }
  SECTION("a name repeated in a directory (case-insensitively)") {
    Bytes image = good;
    const auto record = iso::find_record(image, "DIR/TWO.BIN;1");
    const std::string renamed = "one.BIN;1";  // the same length as TWO.BIN;1
    for (std::size_t i = 0; i < renamed.size(); ++i) image[record.at + 33 + i] = static_cast<std::byte>(renamed[i]);
    auto listed = list(image);
    REQUIRE(listed.ok());
    CHECK(listed.value().members.size() == 3);
    CHECK(has_warning(listed.value(), fmt::format("\"DIR/one.BIN\" (record at offset {:#x}) left out: a name already in this directory", record.at)));
  }
}

TEST_CASE("ISO9660 writer refuses what it cannot record", "[iso9660][writer]") {
  CHECK_THROWS_AS(build_iso9660({{"", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_iso9660({{"A//B", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_iso9660({{"ENDS.", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_iso9660({{"X;1", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_iso9660({{"SAME", {}}, {"same", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_iso9660({{"D", {}}, {"D/F", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_iso9660({{"A/B/C/D/E/F/G/H/TOO_DEEP", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_iso9660({{std::string(201, 'N'), {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_iso9660({}, std::string(33, 'V')), std::invalid_argument);
  CHECK_NOTHROW(build_iso9660({}));
}
