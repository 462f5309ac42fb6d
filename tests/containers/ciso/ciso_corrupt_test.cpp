// One crafted corrupt input per CISO rule of containers.md section 2 (offsets in the raw file),
// and the listing's refusal of a view that is not a GameCube disc (offsets in the view).
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <memory>

#include "containers/ciso/ciso_container.h"
#include "containers/ciso/ciso_writer.h"
#include "containers/gcm/gcm_test_support.h"

using namespace animdex;
using namespace animdex::ciso;
using test::Bytes;

namespace {

Result<std::shared_ptr<const ByteSource>> open_bytes(const Bytes& bytes) {
  return open_ciso(std::make_shared<const MemorySource>(Bytes(bytes)));
}

void expect_error(const Bytes& bytes, const std::string& text, std::uint64_t offset) {
  test::expect_parse_error(open_bytes(bytes), text, offset);
}

Result<MemberList> list_bytes(const Bytes& ciso_bytes) {
  const auto view = open_bytes(ciso_bytes);
  REQUIRE(view.ok());
  return list_ciso(ContainerInput{*view.value(), *view.value(), "x.ciso"}, ContainerLimits{});
}

}  // namespace

TEST_CASE("corrupt CISO headers", "[ciso][corrupt]") {
  const Bytes good = build_ciso(test::fixture_disc());
  REQUIRE(open_bytes(good).ok());
  SECTION("shorter than the header") { expect_error(Bytes(good.begin(), good.begin() + 0x7FFF), "0x8000-byte CISO header", 0); }
  SECTION("magic") {
    Bytes b = good;
    b[3] = std::byte{'0'};
    expect_error(b, "the magic 'CISO'", 0);
  }
  SECTION("block size below 32 KiB") {
    Bytes b = good;
    test::put(b, kBlockSizeOffset, 0x7FFF, 4, LE);
    expect_error(b, "a block size of 32 KiB to 16 MiB (u32 little-endian), found 32767", kBlockSizeOffset);
  }
  SECTION("block size above 16 MiB") {
    Bytes b = good;
    test::put(b, kBlockSizeOffset, (16u << 20) + 1, 4, LE);
    expect_error(b, "a block size of 32 KiB to 16 MiB", kBlockSizeOffset);
    test::put(b, kBlockSizeOffset, 0x10000, 4, BE);  // 64 KiB written big-endian reads as 256
    expect_error(b, "found 256", kBlockSizeOffset);
  }
  SECTION("a map byte other than 0 or 1") {
    Bytes b = good;
    b[kMapOffset + 100] = std::byte{2};
    expect_error(b, "a map byte 0 (absent) or 1 (present), found 0x02", kMapOffset + 100);
  }
  SECTION("the file ends before its present blocks: the view opens, reading a missing block fails") {
    Bytes b = good;  // the fixture disc fits in one block: block 0 present
    b[kMapOffset + 5] = std::byte{1};  // a second present block, not in the file
    const auto view = open_bytes(b);
    REQUIRE(view.ok());
    std::vector<std::byte> out(16);
    CHECK_NOTHROW(view.value()->read(0, out));
    try {
      view.value()->read(5 * 0x8000, out);
      FAIL("a cut block was read");
    } catch (const ParseFailure& failure) {
      CHECK_THAT(failure.error().message(), Catch::Contains("2 present blocks of 32768 bytes after the header (0x18000 bytes in all)"));
      CHECK_THAT(failure.error().message(), Catch::Contains("present block 1 (disc block 5) is cut short"));
      CHECK(failure.error().offset == kHeaderSize + 0x8000);
    }
  }
}

TEST_CASE("a CISO whose disc is not a GameCube disc is refused clearly", "[ciso][corrupt]") {
  SECTION("zeros") { test::expect_parse_error(list_bytes(build_ciso(Bytes(0x8000))), "a GameCube disc inside the CISO", 0x1C); }
  SECTION("a Wii disc") {
    Bytes wii(0x8000);
    test::put(wii, gcm::kWiiMagicOffset, gcm::kWiiMagic, 4, BE);
    test::expect_parse_error(list_bytes(build_ciso(wii)), "Wii partitions are encrypted", gcm::kWiiMagicOffset);
  }
  SECTION("the raw CISO given in place of its view") {
    const Bytes raw = build_ciso(test::fixture_disc());
    const MemorySource source{std::span<const std::byte>(raw)};
    test::expect_parse_error(list_ciso(ContainerInput{source, source, "x.ciso"}, ContainerLimits{}),
                             "the module's view, not the raw CISO", 0);
  }
  SECTION("a broken FST inside: the GameCube error, offset in the view") {
    Bytes disc = test::fixture_disc();
    test::put(disc, test::entry_offset(disc, 4) + 4, 0, 4, BE);
    test::expect_parse_error(list_bytes(build_ciso(disc)), "parent index 2", test::entry_offset(disc, 4) + 4);
  }
}

TEST_CASE("a truncated CISO keeps the members before the cut, each cut one is an error of its own", "[ciso][corrupt]") {
  // Issue 35: a CISO cut short failed as a whole, losing every member.
  std::vector<gcm::GcmFile> files;
  for (int i = 0; i < 6; ++i) files.push_back({fmt::format("f{}.bin", i), Bytes(0x6000, std::byte(i + 1))});
  const Bytes disc = gcm::build_gcm(files);
  Bytes ciso = build_ciso(disc);
  ciso.resize(ciso.size() - 0x9000);  // the last block and a part of the one before
  const auto listed = list_bytes(ciso);
  REQUIRE(listed.ok());
  const auto& members = listed.value().members;
  REQUIRE(members.size() == 6);
  const auto view = open_bytes(ciso).value();
  std::size_t bad = 0;
  for (const auto& member : members) {
    CAPTURE(member.path);
    if (member.error) {
      ++bad;
      CHECK_THAT(member.error->message(), Catch::Contains("is cut short"));
      continue;
    }
    CHECK(view->read_vector(member.offset, member.stored_size) ==
          Bytes(disc.begin() + static_cast<std::ptrdiff_t>(member.offset),
                disc.begin() + static_cast<std::ptrdiff_t>(member.offset + member.stored_size)));
  }
  CHECK(bad >= 1);
  CHECK(bad < 6);
  CHECK_FALSE(members.front().error);
  CHECK(members.back().error);
  bool warned = false;
  for (const auto& warning : listed.value().warnings) warned = warned || warning.find("cut short?") != std::string::npos;
  CHECK(warned);
}
