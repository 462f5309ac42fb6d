// One crafted corrupt input per invariant of kh2-mset.md "Validation invariants": each is a clear
// error naming the offset, never a crash; warn-only deviations parse with a warning.
#include <catch2/catch.hpp>
#include <cstring>

#include "formats/kh2/kh2_motion_set.h"
#include "formats/registry.h"
#include "kh2_fixture.h"
#include "support/corrupt_input.h"

using namespace animdex;
using namespace animdex::kh2;

namespace {

using test::Bytes;

// Where the fixture motion's tables are (absolute in the motion).
std::size_t curves_at(const Bytes& motion) { return kMotionBase + test::get(motion, 0xC0, 4, LE); }
std::size_t keys_at(const Bytes& motion) { return kMotionBase + test::get(motion, 0xD0, 4, LE); }

Bytes fixture_motion() { return write_motion(test::interpolated_motion(32, {5})); }

void expect_motion_error(const Bytes& bytes, const std::string& text, std::uint64_t offset) {
  test::expect_parse_error(parse_motion(bytes), text, offset);
}

void expect_set_error(const Bytes& bytes, const std::string& text) {
  test::expect_parse_error(parse_motion_set(bytes), text);
}

}  // namespace

TEST_CASE("corrupt BAR headers and entry tables", "[kh2][corrupt]") {
  const Bytes good = test::motion_set("ADA", 1);
  REQUIRE(parse_motion_set(good).ok());
  SECTION("shorter than the 16-byte header") { expect_set_error(Bytes(good.begin(), good.begin() + 12), "BAR header"); }
  SECTION("wrong magic") {
    Bytes bytes = good;
    bytes[2] = std::byte{'X'};
    expect_set_error(bytes, "magic \"BAR\"");
  }
  SECTION("negative entry count") {
    Bytes bytes = good;
    test::put(bytes, 4, 0xFFFFFFFF, 4, LE);
    expect_set_error(bytes, "entry count >= 0");
  }
  SECTION("entry table past the end") {
    Bytes bytes = good;
    test::put(bytes, 4, 100000, 4, LE);
    expect_set_error(bytes, "100000 entries");
  }
  SECTION("data offset inside the entry table") {
    Bytes bytes = good;
    test::put(bytes, 0x10 + 8, 0x20, 4, LE);
    expect_set_error(bytes, "at or after the entry table end");
  }
  SECTION("data past the end") {
    Bytes bytes = good;
    test::put(bytes, 0x10 + 12, static_cast<std::uint32_t>(bytes.size()), 4, LE);
    expect_set_error(bytes, "entry 0 data");
  }
  SECTION("negative size") {
    Bytes bytes = good;
    test::put(bytes, 0x10 + 12, 0xFFFFFFF0, 4, LE);
    expect_set_error(bytes, "entry 0 size >= 0");
  }
  SECTION("motion set type 3") {
    Bytes bytes = good;
    test::put(bytes, 12, 3, 4, LE);
    expect_set_error(bytes, "motion set type 0 (Default), 1 (Player) or 2 (Raw)");
  }
  SECTION("a slot whose ANB is not a BAR") {
    Bytes bytes = good;
    const std::size_t anb_at = test::get(bytes, 0x10 + 8, 4, LE);
    bytes[anb_at] = std::byte{'X'};
    const auto parsed = parse_motion_set(bytes);
    REQUIRE_FALSE(parsed.ok());
    CHECK_THAT(parsed.error().message(), Catch::Contains("slot 0: ANB starting with \"BAR\""));
    CHECK(parsed.error().offset == anb_at);
  }
}

TEST_CASE("corrupt motions: one input per invariant", "[kh2][corrupt]") {
  const Bytes good = fixture_motion();
  REQUIRE(parse_motion(good).ok());
  SECTION("too short for the common header") {
    expect_motion_error(Bytes(good.begin(), good.begin() + 0x98), "motion header", 0);
  }
  SECTION("too short for the interpolated header") {
    expect_motion_error(Bytes(good.begin(), good.begin() + 0x120), "interpolated motion header", 0xA0);
  }
  SECTION("too short for the raw header") {
    Bytes bytes(good.begin(), good.begin() + 0xC0);
    test::put(bytes, 0x90, 1, 4, LE);
    expect_motion_error(bytes, "raw motion header", 0xA0);
  }
  SECTION("motion type other than 0 or 1") {
    Bytes bytes = good;
    test::put(bytes, 0x90, 7, 4, LE);
    expect_motion_error(bytes, "motion type 0 (interpolated) or 1 (raw)", 0x90);
  }
  SECTION("bone count above the total bone count") {
    Bytes bytes = good;
    test::put(bytes, 0xA0, 40, 2, LE);
    expect_motion_error(bytes, "total bone count >= bone count 40", 0xA2);
  }
  SECTION("FPS not above zero") {
    Bytes bytes = good;
    test::put_f32(bytes, 0x128, 0.0f, LE);
    expect_motion_error(bytes, "FPS > 0", 0x128);
  }
  SECTION("a table past the end of the motion") {
    Bytes bytes = good;
    test::put(bytes, 0xC4, 5000, 4, LE);  // forward curve count
    expect_motion_error(bytes, "forward curve table", 0xC0);
  }
  SECTION("a table that ends before it starts") {
    Bytes bytes = good;
    test::put(bytes, 0xD4, test::get(bytes, 0xD0, 4, LE) - 8, 4, LE);  // key times before the keys
    expect_motion_error(bytes, "key table to end at or after its start", 0xD4);
  }
  SECTION("curve channel above 8") {
    Bytes bytes = good;
    bytes[curves_at(bytes) + 2] = std::byte{9};
    expect_motion_error(bytes, "curve channel 0..8", curves_at(bytes) + 2);
  }
  SECTION("curve joint outside the joint table") {
    Bytes bytes = good;
    test::put(bytes, curves_at(bytes), 33, 2, LE);
    expect_motion_error(bytes, "forward curve joint in 0..32", curves_at(bytes));
  }
  SECTION("first key + key count past the key table") {
    Bytes bytes = good;
    bytes[curves_at(bytes) + 3] = std::byte{3};
    expect_motion_error(bytes, "within the 2-entry key table", curves_at(bytes) + 4);
  }
  SECTION("key-time index past the key time count") {
    Bytes bytes = good;
    test::put(bytes, keys_at(bytes), static_cast<std::uint16_t>((2 << 2) | 1), 2, LE);
    expect_motion_error(bytes, "key 0 time index < key time count 2", curves_at(bytes));
  }
  SECTION("a curve's keys out of time order") {
    Bytes bytes = good;
    const auto with_time = [&](int key, std::uint64_t time_index) {  // keeps the interpolation bits
      const std::size_t at = keys_at(bytes) + 8 * static_cast<std::size_t>(key);
      test::put(bytes, at, (test::get(bytes, at, 2, LE) & 0x3) | (time_index << 2), 2, LE);
    };
    with_time(0, 1);
    with_time(1, 0);
    expect_motion_error(bytes, "key 1 at a time at or after the previous key's 10 (keys in time order)",
                        curves_at(bytes));
  }
  SECTION("value index out of range") {
    Bytes bytes = good;
    test::put(bytes, keys_at(bytes) + 2, 2, 2, LE);
    expect_motion_error(bytes, "key 0 value index in 0..1", curves_at(bytes));
  }
  SECTION("tangent index out of range on a hermite key") {
    Bytes bytes = good;
    test::put(bytes, keys_at(bytes) + 8 + 6, 9, 2, LE);
    expect_motion_error(bytes, "key 1 tangent index in 0..1", curves_at(bytes));
  }
  SECTION("tangent indices of a linear key are not checked") {
    Bytes bytes = good;
    test::put(bytes, keys_at(bytes) + 4, 999, 2, LE);
    CHECK(parse_motion(bytes).ok());
  }
  SECTION("interpolation 3") {
    Bytes bytes = good;
    test::put(bytes, keys_at(bytes), 3, 2, LE);
    expect_motion_error(bytes, "interpolation 0 (constant), 1 (linear) or 2 (hermite)", curves_at(bytes));
  }
  SECTION("raw matrices past the end") {
    Motion motion;
    motion.kind = MotionKind::raw;
    RawMotion raw;
    raw.bone_count = 2;
    raw.total_frame_count = 1;
    raw.range.fps = 30;
    raw.matrices.resize(2);
    motion.raw = raw;
    Bytes bytes = write_motion(motion);
    test::put(bytes, 0xB4, 3, 4, LE);  // 3 stored frames, only 1 written
    expect_motion_error(bytes, "animation matrices (6 x 64 bytes", 0xB8);
  }
}

TEST_CASE("warn-only deviations parse, with a warning", "[kh2][corrupt]") {
  Bytes motion = fixture_motion();
  motion[0x10] = std::byte{1};                 // non-zero byte in the zero prefix
  test::put(motion, 0x98, 0, 4, LE);                    // extra data offset 0 (28 real motions have it)
  auto parsed = parse_motion(motion);
  REQUIRE(parsed.ok());
  CHECK(parsed.value().warnings.size() == 2);

  Bytes set = test::motion_set("A", 0);
  set[3] = std::byte{2};  // BAR byte 3 is not 0x01
  auto file = parse_motion_set(set);
  REQUIRE(file.ok());
  REQUIRE(file.value().warnings.size() == 1);
  CHECK_THAT(file.value().warnings[0], Catch::Contains("byte 3"));
}

TEST_CASE("errors inside a slot name the slot and the absolute offset", "[kh2][corrupt]") {
  Bytes set = test::motion_set("DA", 1);
  const std::size_t anb_at = test::get(set, 0x20 + 8, 4, LE);  // slot 1's ANB
  const std::size_t motion_at = anb_at + test::get(set, anb_at + 0x10 + 8, 4, LE);
  test::put_f32(set, motion_at + 0x128, -1.0f, LE);
  const auto parsed = parse_motion_set(set);
  REQUIRE_FALSE(parsed.ok());
  CHECK_THAT(parsed.error().message(), Catch::Contains("slot 1: Motion: FPS > 0"));
  CHECK(parsed.error().offset == motion_at + 0x128);
}

TEST_CASE("nesting is bounded: a motion set inside a nested motion set is listed, not followed", "[kh2][corrupt]") {
  const Bytes innermost = test::motion_set("A", 0);
  const Bytes inner = write_bar({{kTypeMotionset, 0, "deep", innermost, -1}}, 0);
  const Bytes outer = write_bar({{kTypeMotionset, 0, "nest", inner, -1}}, 0);
  const auto parsed = parse_motion_set(outer);
  REQUIRE(parsed.ok());
  CHECK(parsed.value().motions.empty());
  REQUIRE(parsed.value().warnings.size() == 1);
  CHECK_THAT(parsed.value().warnings[0], Catch::Contains("slot 0/0: a motion set inside a nested motion set"));
}

TEST_CASE("ANB quirks of real files: overrun, empty motion, other entry sets", "[kh2][corrupt]") {
  SECTION("an ANB running past its slot's size is bounded by the parent, with a warning") {
    Bytes anb = test::anb_of(test::interpolated_motion(4, {1}));
    const Bytes set = write_bar({{kTypeAnb, 0, "A000", anb, -1}, {kTypeAnb, 0, "pad", Bytes(64), -1}}, 0);
    Bytes shrunk = set;
    test::put(shrunk, 0x10 + 12, static_cast<std::uint32_t>(anb.size() - 8), 4, LE);  // declared 8 bytes short
    const auto parsed = parse_motion_set(shrunk);
    REQUIRE_FALSE(parsed.ok());  // slot 1 is 64 zero bytes: not an ANB
    Bytes one = write_bar({{kTypeAnb, 0, "A000", anb, -1}}, 0);
    one.resize(one.size() + 16);  // padding after the slot
    test::put(one, 0x10 + 12, static_cast<std::uint32_t>(anb.size() - 8), 4, LE);
    const auto kept = parse_motion_set(one);
    REQUIRE(kept.ok());
    CHECK(kept.value().motions.size() == 1);
    CHECK_THAT(kept.value().warnings.at(0), Catch::Contains("runs 8 bytes past the slot's size"));
  }
  SECTION("an ANB with an empty Motion entry is a real slot without a motion") {
    const Bytes anb = write_anb({}, Bytes(4));
    const auto parsed = parse_motion_set(write_bar({{kTypeAnb, 0, "A000", anb, -1}}, 0));
    REQUIRE(parsed.ok());
    CHECK_FALSE(parsed.value().slots[0].is_dummy);
    CHECK_FALSE(parsed.value().slots[0].motion_index);
    CHECK(parsed.value().motions.empty());
  }
  SECTION("an ANB without MotionTriggers parses, with a warning") {
    const Bytes anb = write_bar({{kTypeMotion, 0, "A000", fixture_motion(), -1}});
    const auto parsed = parse_anb(anb);
    REQUIRE(parsed.ok());
    CHECK(parsed.value().motions.size() == 1);
    CHECK_THAT(parsed.value().warnings.at(0), Catch::Contains("not exactly one of each"));
  }
}

TEST_CASE("every truncation of a motion set is an error or a parse, never a crash", "[kh2][corrupt]") {
  const Bytes good = test::motion_set("ADAD", 1);
  std::size_t errors = 0;
  for (std::size_t length = 0; length < good.size(); length += 7) {
    const Bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(length));
    const auto* format = detect_format(cut, cut.size());
    if (!format) continue;
    errors += !format->parse(cut).ok();
  }
  CHECK(errors > 0);
}

TEST_CASE("resource bounds: hostile files cannot multiply slots, motions or keys", "[kh2][corrupt]") {
  SECTION("nested BARs whose entry tables overlap") {
    // K BAR headers packed 16 bytes apart: each one's entry table is the headers after it.
    constexpr std::uint32_t kCount = 64;
    const std::size_t headers_at = 0x10 + 0x10 * kCount;
    Bytes bytes(headers_at + 0x10 * kCount);
    const Bytes outer = write_bar({}, 0);
    std::copy(outer.begin(), outer.end(), bytes.begin());
    test::put(bytes, 4, kCount, 4, LE);
    for (std::uint32_t i = 0; i < kCount; ++i) {
      const std::size_t entry = 0x10 + 0x10 * i, header = headers_at + 0x10 * i;
      test::put(bytes, entry, kTypeMotionset, 2, LE);
      test::put(bytes, entry + 8, static_cast<std::uint32_t>(header), 4, LE);
      test::put(bytes, entry + 12, 0x10 * (kCount - i), 4, LE);
      bytes[header] = std::byte{'B'}, bytes[header + 1] = std::byte{'A'}, bytes[header + 2] = std::byte{'R'};
      bytes[header + 3] = std::byte{1};
      test::put(bytes, header + 4, kCount - 1 - i, 4, LE);
    }
    expect_set_error(bytes, "one per 16 bytes of the file");
  }
  SECTION("many curves all pointing at the same keys") {
    Motion motion = test::interpolated_motion(8, {1});
    auto& body = *motion.interpolated;
    body.forward_curves.assign(300, body.forward_curves[0]);
    const Bytes bytes = write_motion(motion);
    const auto parsed = parse_motion(bytes);
    REQUIRE_FALSE(parsed.ok());
    CHECK_THAT(parsed.error().message(), Catch::Contains("curves referencing at most 259 keys") &&
                                             Catch::Contains("found 600"));
  }
  SECTION("many ANBs whose Motion entries all point at one large motion") {
    Motion big = test::interpolated_motion(200, {});
    for (std::int16_t bone = 0; bone < 150; ++bone) big.interpolated->forward_curves.push_back({bone, 3, 1, 0});
    big.interpolated->keys = test::interpolated_motion(8, {1}).interpolated->keys;
    big.interpolated->values = {1.0f, 2.0f};
    const Bytes motion = write_motion(big);
    constexpr std::uint32_t kSlots = 64;
    const std::size_t anbs_at = 0x10 + 0x10 * kSlots, motion_at = anbs_at + 0x30 * kSlots;
    Bytes bytes(motion_at + motion.size());
    std::copy(motion.begin(), motion.end(), bytes.begin() + static_cast<std::ptrdiff_t>(motion_at));
    const Bytes header = write_bar({}, 0);
    std::copy(header.begin(), header.end(), bytes.begin());
    test::put(bytes, 4, kSlots, 4, LE);
    for (std::uint32_t i = 0; i < kSlots; ++i) {
      const std::size_t entry = 0x10 + 0x10 * i, anb = anbs_at + 0x30 * i;
      test::put(bytes, entry, kTypeAnb, 2, LE);
      test::put(bytes, entry + 8, static_cast<std::uint32_t>(anb), 4, LE);
      test::put(bytes, entry + 12, 0x30, 4, LE);
      const Bytes anb_header = write_bar({}, 0);
      std::copy(anb_header.begin(), anb_header.end(), bytes.begin() + static_cast<std::ptrdiff_t>(anb));
      test::put(bytes, anb + 4, 2, 4, LE);
      test::put(bytes, anb + 0x10, kTypeMotion, 2, LE);
      test::put(bytes, anb + 0x18, static_cast<std::uint32_t>(motion_at - anb), 4, LE);
      test::put(bytes, anb + 0x1C, static_cast<std::uint32_t>(motion.size()), 4, LE);
      test::put(bytes, anb + 0x20, kTypeMotionTriggers, 2, LE);
      test::put(bytes, anb + 0x28, 0x30, 4, LE);
    }
    expect_set_error(bytes, "twice the file");
  }
}
