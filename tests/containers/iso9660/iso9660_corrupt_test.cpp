// One crafted corrupt image per error rule of containers.md section 5 (and the caps): the message
// and the absolute offset of the field or record that breaks it.
#include <catch2/catch.hpp>

#include "containers/iso9660/iso9660_container.h"
#include "containers/iso9660/iso9660_writer.h"
#include "containers/iso9660/iso_records.h"
#include "support/corrupt_container.h"

using namespace animdex;
using namespace animdex::iso9660;
using Bytes = std::vector<std::byte>;
namespace iso = animdex::test::iso;

namespace {

const test::CorruptContainer archive{list_iso9660, "disc.iso"};

std::vector<IsoFile> fixture_files() {
  std::vector<IsoFile> files = {{"TOP.BIN", Bytes(100, std::byte{1})},
                                {"DIR/FILE.BIN", Bytes(10, std::byte{2})},
                                {"DIR/SUB/DEEP.BIN", Bytes(10, std::byte{3})}};
  for (int i = 0; i < 60; ++i)  // 54-byte records: FULL takes 2 sectors
    files.push_back({"FULL/NAME_OF_SIXTEEN_" + std::to_string(10 + i), Bytes(1, std::byte{4})});
  return files;
}

}  // namespace

TEST_CASE("corrupt ISO9660 descriptors", "[iso9660][corrupt]") {
  const Bytes good = build_iso9660(fixture_files());
  REQUIRE(archive.list(good).ok());
  SECTION("an image ending before sector 16") {
    archive.expect_error(Bytes(good.begin(), good.begin() + 0x8003), "volume descriptor 0 at 0x8000 (7 bytes) inside the 32771-byte image", 0x8000);
    archive.expect_error(Bytes(100), "volume descriptor 0 at 0x8000 (7 bytes) inside the 100-byte image", 100);  // at its end
    archive.expect_error(Bytes(good.begin(), good.begin() + 0x8800), "volume descriptor 1 at 0x8800", 0x8800);
  }
  SECTION("no CD001") {
    Bytes b = good;
    b[0x8002] = std::byte{'X'};
    archive.expect_error(b, "\"CD001\" (a volume descriptor)", 0x8001);
  }
  SECTION("a terminator before any primary descriptor") {
    Bytes b = good;
    b[0x8000] = std::byte{kSupplementary};
    archive.expect_error(b, "a primary volume descriptor before the terminator", 0x8800);
  }
  SECTION("no terminator within 32 descriptors") {
    Bytes b(48 * 2048);
    for (int sector = 16; sector < 48; ++sector)
      std::copy(good.begin() + 0x8000, good.begin() + 0x8800, b.begin() + sector * 2048);
    archive.expect_error(b, "a volume descriptor set terminator within 32 descriptors", 48 * 2048);
  }
  SECTION("descriptor version") {
    Bytes b = good;
    b[0x8006] = std::byte{2};
    archive.expect_error(b, "volume descriptor version 1", 0x8006);
  }
  SECTION("a logical block size other than 2048") {
    Bytes b = good;
    iso::put_both(b, 0x8080, 512, 2);
    archive.expect_error(b, "a logical block size of 2048", 0x8080);
  }
  SECTION("a root record that is not 34 bytes") {
    Bytes b = good;
    b[iso::kRootRecord] = std::byte{40};
    archive.expect_error(b, "a 34-byte root directory record", iso::kRootRecord);
  }
  SECTION("a root record not flagged a directory") {
    Bytes b = good;
    b[iso::kRootRecord + 25] = std::byte{0};
    archive.expect_error(b, "the root record flagged a directory", iso::kRootRecord + 25);
  }
}

TEST_CASE("corrupt ISO9660 directory records", "[iso9660][corrupt]") {
  const Bytes good = build_iso9660(fixture_files());
  SECTION("a record crossing its sector") {
    Bytes b = good;
    const auto full = iso::find_record(b, "FULL");
    REQUIRE(full.length > 2048);
    // The last record of FULL's first sector (54-byte records: it ends 36 bytes short of the sector).
    const std::size_t sector_end = full.extent * 2048 + 2048;
    iso::RecordAt last;
    for (int i = 10; i < 70; ++i) {
      const auto record = iso::find_in(b, full, "NAME_OF_SIXTEEN_" + std::to_string(i) + ".;1");
      if (record.at < sector_end && record.at > last.at) last = record;
    }
    const std::size_t room = sector_end - last.at;
    REQUIRE(room < 255);
    b[last.at] = static_cast<std::byte>(room + 2);
    archive.expect_error(b, "a directory record inside its 2048-byte sector", last.at);
  }
  SECTION("a record shorter than 33 bytes") {
    Bytes b = good;
    const auto record = iso::find_record(b, "TOP.BIN;1");
    b[record.at] = std::byte{20};
    archive.expect_error(b, "a record length of at least 33 + the name length", record.at);
  }
  SECTION("a record shorter than 33 + its name") {
    Bytes b = good;
    const auto record = iso::find_record(b, "TOP.BIN;1");
    b[record.at] = std::byte{33 + 8};  // "TOP.BIN;1" has 9 bytes
    archive.expect_error(b, "a record length of at least 33 + the name length", record.at);
  }
  SECTION("a name of 0 bytes") {
    Bytes b = good;
    const auto record = iso::find_record(b, "TOP.BIN;1");
    b[record.at + 32] = std::byte{0};
    archive.expect_error(b, "a name of at least 1 byte", record.at + 32);
  }
  SECTION("a directory extent outside the image") {
    Bytes b = good;
    const auto record = iso::find_record(b, "DIR/SUB");
    iso::put_both(b, record.at + 2, b.size() / 2048, 4);
    archive.expect_error(b, "a directory extent inside the", record.at);
  }
  SECTION("a directory length past the image end") {
    Bytes b = good;
    const auto record = iso::find_record(b, "DIR");
    iso::put_both(b, record.at + 10, b.size(), 4);
    archive.expect_error(b, "a directory extent inside the", record.at);
  }
  SECTION("a directory visited twice (a cycle back to the root)") {
    Bytes b = good;
    const auto root = iso::record_at(b, iso::kRootRecord);
    const auto record = iso::find_record(b, "DIR/SUB");
    iso::put_both(b, record.at + 2, root.extent, 4);
    archive.expect_error(b, "each directory extent visited once (no cycle)", record.at);
  }
  SECTION("directories nested deeper than 8 levels") {
    Bytes b = build_iso9660({{"A/B/C/D/E/F/G/FILE.BIN", Bytes(1)}});
    REQUIRE(archive.list(b).ok());
    const auto record = iso::find_record(b, "A/B/C/D/E/F/G/FILE.BIN;1");
    b[record.at + 25] = std::byte{0x02};  // now a directory at level 9
    archive.expect_error(b, "directories nested at most 8 levels deep", record.at);
  }
}

TEST_CASE("ISO9660 caps", "[iso9660][corrupt]") {
  const Bytes good = build_iso9660(fixture_files());
  SECTION("directory bytes over max_table_size") {
    ContainerLimits limits;
    limits.max_table_size = 3 * 2048;  // root, DIR, DIR/SUB (1 sector each), then FULL (2) is too many
    const auto full = iso::find_record(good, "FULL");
    archive.expect_error(good, "at most 6144 bytes of directories", full.extent * 2048, limits);
  }
  SECTION("files over max_members") {
    ContainerLimits limits;
    limits.max_members = 2;
    const auto third = iso::find_record(good, "DIR/SUB/DEEP.BIN;1");  // after TOP.BIN and DIR/FILE.BIN
    archive.expect_error(good, "at most 2 files", third.at, limits);
  }
}
