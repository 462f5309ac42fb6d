// GameCube images (containers.md section 2): writer round trips, the FST layout the writer makes,
// names, duplicates, trimmed and large images, and that a listing reads only boot.bin and the FST.
#include <catch2/catch.hpp>

#include <map>

#include "containers/container_test_support.h"
#include "containers/gcm/gcm_container.h"
#include "containers/gcm/gcm_test_support.h"
#include "containers/gcm/gcm_writer.h"

using namespace animdex;
using namespace animdex::gcm;
using test::Bytes;

namespace {

std::vector<std::string> paths_of(const MemberList& listing) {
  std::vector<std::string> paths;
  for (const auto& member : listing.members) paths.push_back(member.path);
  return paths;
}

std::string bytes_text(std::initializer_list<unsigned> values) {
  std::string text;
  for (unsigned value : values) text.push_back(static_cast<char>(value));
  return text;
}

}  // namespace

TEST_CASE("a written disc lists every file with its bytes", "[gcm]") {
  const auto files = test::fixture_files();
  const Bytes disc = build_gcm(files);
  REQUIRE(detect_gcm(disc, disc.size()));
  const MemorySource source{std::span<const std::byte>(disc)};
  const auto listed = test::list_disc(source);
  REQUIRE(listed.ok());
  CHECK(listed.value().warnings.empty());
  // FST order: each directory sorted by upper-cased name, depth first.
  CHECK(paths_of(listed.value()) == std::vector<std::string>{"a.bin", "dir/b.bin", "dir/sub/c.bin", "z.bin"});
  std::map<std::string, Bytes> expected;
  for (const auto& file : files) expected[file.path] = file.bytes;
  for (const auto& member : listed.value().members) {
    INFO(member.path);
    CHECK(member.stored_name == member.path);
    CHECK(member.compression == nullptr);
    CHECK(member.stored_size == member.size);
    CHECK(member.offset % 32 == 0);
    CHECK(test::member_bytes(source, member) == expected.at(member.path));
  }
}

TEST_CASE("the writer lays out boot.bin and the FST as the note says", "[gcm]") {
  const Bytes disc = build_gcm(test::fixture_files(), "G4NJDA", "NARUTO GEKITOU NINJATAISEN4");
  CHECK(std::string(reinterpret_cast<const char*>(disc.data()), 6) == "G4NJDA");
  CHECK(test::get(disc, kMagicOffset, 4, BE) == kGameCubeMagic);
  CHECK(std::string(reinterpret_cast<const char*>(disc.data() + kTitleOffset)) == "NARUTO GEKITOU NINJATAISEN4");
  CHECK(test::fst_offset(disc) == kBuiltFstOffset);
  CHECK(test::get(disc, kFstMaxSizeField, 4, BE) == test::fst_size(disc));
  CHECK(test::entry_count(disc) == 7);
  CHECK(disc.size() % 32 == 0);
  // dir (entry 2): parent 0, end 6; dir/sub (entry 4): parent 2, end 6.
  CHECK(test::get(disc, test::entry_offset(disc, 2), 1, BE) == 1);
  CHECK(test::get(disc, test::entry_offset(disc, 2) + 4, 4, BE) == 0);
  CHECK(test::get(disc, test::entry_offset(disc, 2) + 8, 4, BE) == 6);
  CHECK(test::get(disc, test::entry_offset(disc, 4) + 4, 4, BE) == 2);
  CHECK(test::get(disc, test::entry_offset(disc, 4) + 8, 4, BE) == 6);
  // The FST ends with the last name's NUL; the first file is 32-byte aligned after it.
  CHECK(disc[test::fst_offset(disc) + test::fst_size(disc) - 1] == std::byte{0});
  CHECK(test::get(disc, test::entry_offset(disc, 1) + 4, 4, BE) ==
        (test::fst_offset(disc) + test::fst_size(disc) + 31) / 32 * 32);
}

TEST_CASE("nested directories, GNT4's paths and an empty disc", "[gcm]") {
  std::vector<GcmFile> files = {{"fpack/chr/nar1000.fpk", test::pattern_bytes(300, 1)},
                                {"fpack/chr/sas1000.fpk", test::pattern_bytes(200, 2)},
                                {"fpack/chr/cmn0000.fpk", test::pattern_bytes(100, 3)},
                                {"fpack/game0005.fpk", test::pattern_bytes(50, 4)},
                                {"fpack/unite/0010000.fpk", test::pattern_bytes(0, 5)},
                                {"opening.bnr", test::pattern_bytes(10, 6)},
                                {"a/b/c/d/e/f/g/h.bin", test::pattern_bytes(7, 7)}};
  const Bytes disc = build_gcm(files);
  const MemorySource source{std::span<const std::byte>(disc)};
  const auto listed = test::list_disc(source);
  REQUIRE(listed.ok());
  CHECK(paths_of(listed.value()) == std::vector<std::string>{"a/b/c/d/e/f/g/h.bin", "fpack/chr/cmn0000.fpk",
                                                             "fpack/chr/nar1000.fpk", "fpack/chr/sas1000.fpk",
                                                             "fpack/game0005.fpk", "fpack/unite/0010000.fpk",
                                                             "opening.bnr"});
  for (const auto& member : listed.value().members)
    for (const auto& file : files)
      if (file.path == member.path) CHECK(test::member_bytes(source, member) == file.bytes);

  const auto empty = test::list_disc(build_gcm({}));
  REQUIRE(empty.ok());
  CHECK(empty.value().members.empty());
}

TEST_CASE("the writer refuses paths it cannot lay out", "[gcm]") {
  CHECK_THROWS_AS(build_gcm({{"a//b", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_gcm({{"", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_gcm({{"a", {}}, {"a", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_gcm({{"a", {}}, {"a/b", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_gcm({{"a/b", {}}, {"a", {}}}), std::invalid_argument);
  CHECK_THROWS_AS(build_gcm({}, "G4NJDA01"), std::invalid_argument);
  CHECK_THROWS_AS(build_gcm({}, "G4NJDA", std::string(0x3E0, 'x')), std::invalid_argument);
}

TEST_CASE("Shift-JIS names are kept as stored, case-insensitive duplicates keep the first", "[gcm]") {
  // 0x83 0x41 and 0x83 0x61 are two katakana: their second bytes look like 'A' and 'a' but must
  // not be folded together. "MOT.bin" and "mot.bin" are one path to Dolphin's lookup.
  const std::string katakana_a = bytes_text({0x83, 0x41}) + ".bin", katakana_small = bytes_text({0x83, 0x61}) + ".bin";
  const Bytes disc = build_gcm({{"MOT.bin", test::pattern_bytes(4, 1)},
                                {"mot.bin", test::pattern_bytes(4, 2)},
                                {"d/" + katakana_a, test::pattern_bytes(4, 3)},
                                {"d/" + katakana_small, test::pattern_bytes(4, 4)}});
  const auto listed = test::list_disc(disc);
  REQUIRE(listed.ok());
  CHECK(paths_of(listed.value()) == std::vector<std::string>{"d/" + katakana_a, "d/" + katakana_small, "MOT.bin"});
  REQUIRE(listed.value().warnings.size() == 1);
  CHECK_THAT(listed.value().warnings[0], Catch::Contains("mot.bin") && Catch::Contains("kept the first"));
  // The repeated entry is never reached by a lookup, so its range does not matter.
  Bytes patched = disc;
  test::put(patched, test::entry_offset(patched, 5) + 4, 0xFFFFFFFF, 4, BE);
  REQUIRE(test::get(patched, test::name_offset(patched, 5), 1, BE) == 'm');
  const auto still = test::list_disc(patched);
  REQUIRE(still.ok());
  CHECK(still.value().members.size() == 3);
}

TEST_CASE("detect wants the GameCube magic at 0x1C", "[gcm]") {
  const Bytes disc = test::fixture_disc();
  CHECK(detect_gcm(disc, disc.size()));
  CHECK_FALSE(detect_gcm(std::span(disc).first(0x1F), 0x1F));
  Bytes wii = disc;
  test::put(wii, kMagicOffset, 0, 4, BE);
  test::put(wii, kWiiMagicOffset, kWiiMagic, 4, BE);
  CHECK_FALSE(detect_gcm(wii, wii.size()));
  CHECK_FALSE(detect_gcm({}, 0));
  const auto module = container_module();
  CHECK(module.id == "gcm");
  CHECK(module.detect == detect_gcm);
  CHECK(module.list == list_gcm);
  CHECK(module.view == nullptr);
}

TEST_CASE("a trimmed image is fine while each file lies inside it", "[gcm]") {
  Bytes disc = test::fixture_disc();
  const auto listed = test::list_disc(disc);
  REQUIRE(listed.ok());
  const Member& last = listed.value().members.back();
  disc.resize(last.offset + last.size);  // cut right after the last file's bytes
  const auto trimmed = test::list_disc(disc);
  REQUIRE(trimmed.ok());
  CHECK(trimmed.value().members.size() == 4);
  disc.pop_back();  // one byte short: the last file is listed, with a warning (its own row fails)
  const auto cut = test::list_disc(disc);
  REQUIRE(cut.ok());
  CHECK(cut.value().members.size() == 4);
  REQUIRE(cut.value().warnings.size() == 1);
  CHECK(cut.value().warnings[0].find("past a file inside the") != std::string::npos);
}

TEST_CASE("an empty file named past the end of a trimmed image is skipped with a warning", "[gcm]") {
  const Bytes disc = build_gcm({{"a.bin", test::pattern_bytes(40, 1)}, {"b.bin", {}}});
  Bytes patched = disc;
  test::put(patched, test::entry_offset(patched, 2) + 4, patched.size() + 0x8000, 4, BE);
  const auto listed = test::list_disc(patched);
  REQUIRE(listed.ok());
  CHECK(paths_of(listed.value()) == std::vector<std::string>{"a.bin"});
  REQUIRE(listed.value().warnings.size() == 1);
  CHECK_THAT(listed.value().warnings[0], Catch::Contains("b.bin") && Catch::Contains("skipped"));
  // At the very end it is still inside (an empty range at the end) and listed.
  test::put(patched, test::entry_offset(patched, 2) + 4, patched.size(), 4, BE);
  REQUIRE(test::list_disc(patched).ok());
  CHECK(test::list_disc(patched).value().members.size() == 2);
}

TEST_CASE("listing a 1.4 GB image reads only boot.bin and the FST", "[gcm]") {
  const Bytes disc = test::fixture_disc();
  const test::PaddedSource full_disc(disc, 1'459'978'240ULL);
  const test::CountingSource counting(full_disc);
  const auto listed = test::list_disc(counting);
  REQUIRE(listed.ok());
  CHECK(listed.value().members.size() == 4);
  CHECK(counting.bytes_read == kBootSize + test::fst_size(disc));
}

TEST_CASE("offsets near 4 GiB use 64-bit sums", "[gcm]") {
  Bytes disc = test::fixture_disc();
  // z.bin (entry 6) at 0xFFFFFFF0 with 0x100 bytes ends past 2^32: inside a 5 GiB image...
  test::put(disc, test::entry_offset(disc, 6) + 4, 0xFFFFFFF0, 4, BE);
  test::put(disc, test::entry_offset(disc, 6) + 8, 0x100, 4, BE);
  const test::PaddedSource big(disc, 5ULL << 30);
  const auto listed = test::list_disc(big);
  REQUIRE(listed.ok());
  const Member& far = listed.value().members.back();
  CHECK(far.offset == 0xFFFFFFF0);
  CHECK(far.offset + far.size == 0x1000000F0ULL);
  // ...and outside a 4 GiB one, where a 32-bit sum would have wrapped to 0xF0.
  const test::PaddedSource four(disc, 4ULL << 30);
  const auto outside = test::list_disc(four);
  REQUIRE(outside.ok());
  REQUIRE(outside.value().warnings.size() == 1);
  CHECK(outside.value().warnings[0].find("end at 0x1000000f0, past a file inside the 4294967296-byte image") !=
        std::string::npos);
}

TEST_CASE("caps: FST size and member count", "[gcm][caps]") {
  const Bytes disc = test::fixture_disc();
  ContainerLimits limits;
  limits.max_table_size = test::fst_size(disc) - 1;
  test::expect_parse_error(test::list_disc(disc, limits), "the table cap", kFstSizeField);
  limits = {};
  limits.max_members = 3;
  test::expect_parse_error(test::list_disc(disc, limits), "at most 3 files", test::entry_offset(disc, 6));
  limits.max_members = 4;
  CHECK(test::list_disc(disc, limits).ok());
}

TEST_CASE("a deep FST cannot make paths quadratic", "[gcm][caps]") {
  // 2000 nested directories "d" and a file at the bottom: paths total about 2000^2 bytes.
  std::string path;
  for (int i = 0; i < 2000; ++i) path += "d/";
  const Bytes disc = build_gcm({{path + "x", test::pattern_bytes(1, 1)}});
  ContainerLimits limits;
  limits.max_table_size = 1 << 20;
  const auto listed = test::list_disc(disc, limits);
  test::expect_parse_error(listed, "paths totalling at most 1048576 bytes");
  limits.max_table_size = 8 << 20;
  const auto roomy = test::list_disc(disc, limits);
  REQUIRE(roomy.ok());
  CHECK(roomy.value().members.at(0).path == path + "x");
}
