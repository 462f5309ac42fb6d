// One crafted corrupt input per invariant of the format note's "Parser invariants" list:
// each must fail with the offset of the offending field and say what was expected.
#include <catch2/catch.hpp>

#include "formats/gnt_mot/gnt_mot_parser.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "formats/gnt_mot/gnt_mot_fixture.h"
#include "sample/sample_dump.h"
#include "support/corrupt_input.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

void check_rejected(const std::vector<std::byte>& bytes, std::uint64_t offset, const std::string& expected_text) {
  test::expect_parse_error(gnt_mot::parse_mot(bytes), expected_text, offset);
}

}  // namespace

TEST_CASE("corrupt MOT headers are rejected with their offset", "[gnt_mot][corrupt]") {
  auto good = test::handmade_mot();
  REQUIRE(gnt_mot::parse_mot(good).ok());

  SECTION("shorter than the 16-byte header") {
    check_rejected(std::vector<std::byte>(good.begin(), good.begin() + 8), 0, "16-byte MOT header");
  }
  SECTION("word 0 not zero") {
    test::put(good, 0x00, 1, 4, BE);
    check_rejected(good, 0x00, "MOT header word 0x00 to be zero");
  }
  SECTION("no slots") {
    test::put(good, 0x04, 0, 4, BE);
    check_rejected(good, 0x04, "at least one animation slot");
  }
  SECTION("header size not 0x10") {
    test::put(good, 0x08, 0x20, 4, BE);
    check_rejected(good, 0x08, "MOT header size 0x10");
  }
  SECTION("declared size differs from the file length") {
    test::put(good, 0x0C, 0xC0, 4, BE);
    check_rejected(good, 0x0C, "expected the file size 0xB0");
  }
  SECTION("truncated file: declared size larger than what is there") {
    check_rejected(std::vector<std::byte>(good.begin(), good.begin() + 0x90), 0x0C, "expected the file size 0x90");
  }
  SECTION("slot table runs past the end") {
    test::put(good, 0x04, 0x1000, 4, BE);
    check_rejected(good, 0x04, "slot table of 4096 entries");
  }
}

TEST_CASE("corrupt slot offsets are rejected", "[gnt_mot][corrupt]") {
  auto good = test::handmade_mot();
  SECTION("offset inside the slot table") {
    test::put(good, 0x10, 0x10, 4, BE);
    check_rejected(good, 0x10, "at or after 0x20");
  }
  SECTION("offset at or past the end") {
    test::put(good, 0x10, 0xB0, 4, BE);
    check_rejected(good, 0x10, "before the end 0xB0");
  }
  SECTION("offset not 16-aligned") {
    test::put(good, 0x10, 0x24, 4, BE);
    check_rejected(good, 0x10, "16-aligned");
  }
  SECTION("two slots share one offset") {
    test::put(good, 0x14, 0x20, 4, BE);
    check_rejected(good, 0x14, "already used by slot 0");
  }
}

TEST_CASE("corrupt GNTA and bone headers are rejected", "[gnt_mot][corrupt]") {
  auto good = test::handmade_mot();
  SECTION("GNTA header size not 0x10") {
    test::put(good, 0x24, 0x20, 4, BE);
    check_rejected(good, 0x24, "GNTA header size 0x10");
  }
  SECTION("GNTA shorter than its header (less than 16 bytes before the end)") {
    good.resize(0xB8, std::byte{0});
    test::put(good, 0x0C, 0xB8, 4, BE);
    test::put(good, 0x14, 0xB0, 4, BE);
    check_rejected(good, 0xB0, "16-byte GNTA header");
  }
  SECTION("bone headers do not fit in the GNTA") {
    test::put(good, 0x22, 0x100, 2, BE);
    check_rejected(good, 0x22, "256 bone headers");
  }
  SECTION("bone total time not a number, infinite or past 1e9 seconds, before a later bad word") {
    // The header is read in one run, then checked field by field in file order: the time at 0x08
    // is reported before word 0x0C, which is bad too.
    test::put(good, 0x30 + 0x0C, 7, 4, BE);
    for (const std::uint32_t bits : {0x7FC00000U, 0xFF800000U, 0x4F000000U /* 2^31 s */}) {
      auto bad = good;
      test::put(bad, 0x30 + 0x08, bits, 4, BE);
      check_rejected(bad, 0x38, "the bone's total time");
      test::expect_parse_error(gnt_mot::parse_mot_model(bad), "the bone's total time", 0x38);  // the index's path
    }
  }
  SECTION("bone header word 0x0C not zero") {
    test::put(good, 0x30 + 0x0C, 7, 4, BE);
    check_rejected(good, 0x3C, "bone header word 0x0C to be zero");
  }
  SECTION("bone header word 0x18 not zero") {
    test::put(good, 0x30 + 0x18, 7, 4, BE);
    check_rejected(good, 0x48, "bone header word 0x18 to be zero");
  }
  SECTION("bone header word 0x1C not zero") {
    test::put(good, 0x30 + 0x1C, 7, 4, BE);
    check_rejected(good, 0x4C, "bone header word 0x1C to be zero");
  }
  SECTION("flags1 0x0200 without an encoding bit") {
    test::put(good, 0x30, 0x0200, 2, BE);
    check_rejected(good, 0x30, "flags1 0x0200 together with");
  }
}

TEST_CASE("corrupt data offsets and counts are rejected", "[gnt_mot][corrupt]") {
  auto good = test::handmade_mot();
  SECTION("time values run past the GNTA") {
    test::put(good, 0x50 + 0x10, 0x8D, 4, BE);
    check_rejected(good, 0x60, "time values (1 keys)");
  }
  SECTION("time values overlap the bone headers") {
    test::put(good, 0x30 + 0x10, 0x10, 4, BE);
    check_rejected(good, 0x40, "inside the GNTA data area");
  }
  SECTION("a lying key count pushes the times past the GNTA") {
    test::put(good, 0x50 + 0x06, 0xFFFF, 2, BE);
    check_rejected(good, 0x60, "65535 keys");
  }
  SECTION("coordinates do not follow the padded times") {
    test::put(good, 0x30 + 0x14, 0x70, 4, BE);
    check_rejected(good, 0x44, "coordinates offset 0x60");
  }
  SECTION("coordinates run past the GNTA") {
    test::put(good, 0x30 + 0x06, 5, 2, BE);  // times 0x50..0x64, coordinates must start at 0x70
    test::put(good, 0x30 + 0x14, 0x70, 4, BE);
    test::put_f32(good, 0x7C, 0.5F, BE);  // the 4th time (junk bytes before) in order; the 5th is 3.13
    check_rejected(good, 0x44, "40 coordinate bytes (5 keys)");
  }
}

TEST_CASE("key times out of order are rejected at the later key", "[gnt_mot][corrupt]") {
  auto good = test::handmade_mot();
  test::put_f32(good, 0x70 + 4, 0.75F, BE);  // bone 0 key 1 after key 2 (0.5 s)
  check_rejected(good, 0x70 + 8, "a key time at or after the previous key's 0.75");
  auto equal = test::handmade_mot();
  test::put_f32(equal, 0x70 + 4, 0.5F, BE);  // equal times are allowed (a hold)
  CHECK(gnt_mot::parse_mot(equal).ok());
}

TEST_CASE("a key time that is not a number, or past the time range, is rejected at that key", "[gnt_mot][corrupt]") {
  auto far = test::handmade_mot();
  test::put_f32(far, 0x70 + 8, 2e9F, BE);  // bone 0 key 2
  check_rejected(far, 0x70 + 8, "a key time within +-1e+09 seconds");
  auto nan = test::handmade_mot();
  test::put(nan, 0x70 + 4, 0x7FC00000U, 4, BE);  // bone 0 key 1
  check_rejected(nan, 0x70 + 4, "a finite float32 for a key time");
}

TEST_CASE("padding bytes are not required to be zero", "[gnt_mot][corrupt]") {
  auto bytes = test::handmade_mot();
  bytes[0x18] = std::byte{0x55};  // slot-table padding
  bytes[0xA4] = std::byte{0x77};  // bone 1 time padding
  auto parsed = gnt_mot::parse_mot(bytes);
  REQUIRE(parsed.ok());
  CHECK(gnt_mot::write_mot(parsed.value()) == bytes);
}

TEST_CASE("every truncation and many byte flips of a real-sized file fail cleanly", "[gnt_mot][corrupt]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 1;
  options.include_problem_files = false;
  write_sample_dump(dir.path(), options);
  const auto original = test::read_bytes(dir / "files/chr/sas/0000.mot");
  REQUIRE(original.size() > 1000);
  std::size_t rejected = 0;
  for (std::size_t length = 0; length < original.size(); length += 7) {
    std::vector<std::byte> truncated(original.begin(), original.begin() + length);
    auto parsed = gnt_mot::parse_mot(truncated);
    CHECK_FALSE(parsed.ok());
    rejected += !parsed.ok();
  }
  CHECK(rejected > 100);
  // Flip bytes in the headers, where counts and offsets live; the parser must answer, never crash.
  std::uint32_t state = 12345;
  for (int round = 0; round < 3000; ++round) {
    auto mutated = original;
    state = state * 1664525U + 1013904223U;
    const std::size_t position = (state >> 8) % 0x900;
    mutated[position] = static_cast<std::byte>(state >> 24);
    auto parsed = gnt_mot::parse_mot(mutated);
    if (!parsed.ok()) CHECK_FALSE(parsed.error().expected.empty());
  }
}
