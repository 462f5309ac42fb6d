#include <catch2/catch.hpp>
#include <algorithm>
#include <array>
#include <bit>
#include <limits>

#include "formats/gnt_mot/gnt_mot_builder.h"
#include "formats/gnt_mot/gnt_mot_model.h"
#include "formats/gnt_mot/gnt_mot_parser.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "formats/gnt_mot/gnt_mot_fixture.h"
#include "db/key_blob.h"
#include "sample/sample_dump.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::gnt_mot;

TEST_CASE("16-bit coordinates are the upper halves of f32 (CoordinateTest vectors)", "[gnt_mot]") {
  CHECK(decode_bf16(0x4048) == 3.125F);
  CHECK(decode_bf16(0x3C93) == 0.017944336F);
  CHECK(decode_bf16(0x404E) == 3.21875F);
  CHECK(decode_bf16(0x8000) == 0.0F);
  CHECK(std::signbit(decode_bf16(0x8000)));
  // Encoding truncates: the low 16 bits are dropped, never rounded.
  CHECK(encode_bf16(3.125F) == 0x4048);
  CHECK(encode_bf16(std::bit_cast<float>(0x3C93FFFFU)) == 0x3C93);
  CHECK(encode_bf16(-0.0F) == 0x8000);
}

TEST_CASE("key times are seconds at 60 fps (TimeTest vectors)", "[gnt_mot]") {
  CHECK(seconds_to_frame(std::bit_cast<float>(0x3C888889U)) == 1);
  CHECK(seconds_to_frame(std::bit_cast<float>(0x3D4CCCCEU)) == 3);
  CHECK(seconds_to_frame(std::bit_cast<float>(0x40200001U)) == 150);
  CHECK(seconds_to_frame(std::bit_cast<float>(0x40880000U)) == 255);
  CHECK(seconds_to_frame(std::bit_cast<float>(0x41455556U)) == 740);
  CHECK(seconds_to_frame(std::bit_cast<float>(0x447A0000U)) == 60000);
}

TEST_CASE("frames round as std::llround does, halves away from zero, over the whole time range", "[gnt_mot]") {
  for (const float seconds : {0.5F / 60, -0.5F / 60, 1.5F / 60, -2.5F / 60, 0.0F, -0.0F, 1e-30F, -1e-30F, 1e9F, -1e9F})
    CHECK(seconds_to_frame(seconds) == std::llround(static_cast<double>(seconds) * 60.0));
  // Every 4,099th float32 bit pattern within kMaxSeconds, both signs: about two million values.
  std::size_t mismatches = 0;
  for (std::uint64_t bits = 0; bits < 0x4E6E6B29ULL; bits += 4099)
    for (const std::uint32_t sign : {0U, 0x80000000U}) {
      const float seconds = std::bit_cast<float>(static_cast<std::uint32_t>(bits) | sign);
      mismatches += seconds_to_frame(seconds) != std::llround(static_cast<double>(seconds) * 60.0);
    }
  CHECK(mismatches == 0);
}

TEST_CASE("a hand-laid .mot parses to the values written into it", "[gnt_mot]") {
  const auto bytes = test::handmade_mot();
  REQUIRE(bytes.size() == 0xB0);
  auto parsed = parse_mot(bytes);
  REQUIRE(parsed.ok());
  const auto& mot = parsed.value();
  CHECK(mot.slot_count == 2);
  CHECK(mot.declared_size == 0xB0);
  REQUIRE(mot.animations.size() == 1);
  const auto& gnta = mot.animations[0];
  CHECK(gnta.animation_id == 0);
  CHECK(gnta.file_offset == 0x20);
  CHECK(gnta.play_speed == 0.125F);
  CHECK(gnta.end_time == 0.5F);
  REQUIRE(gnta.bones.size() == 2);
  const auto& bone = gnta.bones[0];
  CHECK(bone.flags1 == 0x0202);
  CHECK(bone.track_flags == 0x28);
  CHECK(bone.bone_id == 0x76);
  CHECK(bone.time_offset == 0x50);
  CHECK(bone.coordinates_offset == 0x60);
  REQUIRE(bone.key_count() == 3);
  CHECK(std::bit_cast<std::uint32_t>(bone.key_times[1]) == 0x3C888889U);
  CHECK(bone.coordinate_words[0] == std::array<std::uint32_t, 4>{0x4048, 0x3C93, 0x404E, 0x8000});
  CHECK(bone.junk_after_times == std::vector<std::byte>(4, std::byte{0xAB}));
  CHECK(bone.junk_after_coordinates == std::vector<std::byte>(8, std::byte{0xEE}));
  const auto& time_only = gnta.bones[1];
  CHECK(time_only.flags1 == 0);
  CHECK(time_only.bone_id == 0xFFFF);
  CHECK(time_only.coordinate_words.empty());
  CHECK(time_only.junk_after_times.size() == 12);

  const auto model = to_model(mot);
  REQUIRE(model.animations.size() == 1);
  const auto& animation = model.animations[0];
  CHECK(animation.slot == 0);
  CHECK(animation.motion_id == 0);
  CHECK(animation.frame_count == 30);
  REQUIRE(animation.tracks.size() == 2);
  const auto& track = animation.tracks[0];
  CHECK(track.bone_id == 0x76);
  CHECK(track.channels == "R");
  CHECK(track.value_encoding == "bf16x4");
  REQUIRE(track.keys.size() == 3);
  CHECK(track.keys[1].frame == 1);
  CHECK(track.keys[2].frame == 30);
  CHECK(track.keys[0].x == 3.125);
  CHECK(track.keys[0].y == static_cast<double>(0.017944336F));
  CHECK(track.keys[0].z == 3.21875);
  CHECK(track.keys[0].w == 0.0);
  CHECK(track.keys[1].x == 1.0);
  CHECK(track.keys[1].y == -1.0);
  CHECK(track.keys[1].w == 90.0);
  CHECK(animation.tracks[1].value_encoding == "none");
  CHECK(animation.tracks[1].channels.empty());
  CHECK_FALSE(animation.tracks[1].keys[0].x.has_value());
  CHECK(animation.tracks[1].keys[0].frame == 2);
}

TEST_CASE("the writer rebuilds a GNTool-laid-out file byte for byte", "[gnt_mot]") {
  const auto original = test::handmade_mot();
  auto parsed = parse_mot(original);
  REQUIRE(parsed.ok());
  CHECK(write_mot(parsed.value()) == original);
}

TEST_CASE("every sample dump file round-trips through parse and write", "[gnt_mot]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 5;
  options.include_problem_files = false;
  const auto summary = write_sample_dump(dir.path(), options);
  REQUIRE(summary.files.size() == 10);
  for (const auto& relative : summary.files) {
    INFO(relative);
    const auto bytes = test::read_bytes(dir / relative);
    auto parsed = parse_mot(bytes);
    REQUIRE(parsed.ok());
    CHECK(write_mot(parsed.value()) == bytes);
  }
}

TEST_CASE("the writer lays GNTAs out in descending ID order, 16-aligned and contiguous", "[gnt_mot]") {
  MotFile mot;
  mot.slot_count = 8;
  for (std::uint32_t id : {1U, 5U, 2U}) {
    GntAnimation animation;
    animation.animation_id = id;
    animation.end_time = frame_to_seconds(10);
    animation.bones.push_back(make_bone({static_cast<std::uint16_t>(id), kTrackRotate | kTrackEnabled,
                                         CoordinateEncoding::bf16, {0, 5, 10}, {{1, 0, 0, 0}, {0, 1, 0, 45}, {0, 0, 1, 90}}}));
    mot.animations.push_back(animation);
  }
  std::sort(mot.animations.begin(), mot.animations.end(),
            [](const auto& a, const auto& b) { return a.animation_id < b.animation_id; });
  const auto bytes = write_mot(mot);
  auto parsed = parse_mot(bytes);
  REQUIRE(parsed.ok());
  const auto& animations = parsed.value().animations;
  REQUIRE(animations.size() == 3);
  const std::uint32_t first = align16(0x10 + 4 * 8);
  CHECK(animations[2].file_offset == first);  // ID 5 right after the table
  CHECK(animations[1].file_offset == first + gnta_size(animations[2]));
  CHECK(animations[0].file_offset == first + gnta_size(animations[2]) + gnta_size(animations[1]));
  CHECK(animations[0].file_offset + gnta_size(animations[0]) == bytes.size());
}

TEST_CASE("f32 coordinates (flags1 0x0204) keep full precision", "[gnt_mot]") {
  MotFile mot;
  mot.slot_count = 1;
  GntAnimation animation;
  animation.bones.push_back(make_bone({3, kTrackTranslate | kTrackEnabled, CoordinateEncoding::f32, {0, 7},
                                       {{0.1F, -0.2F, 0.3F, 0.0F}, {1.0e-3F, 2.5F, -7.75F, 1.0F}}}));
  mot.animations.push_back(animation);
  const auto bytes = write_mot(mot);
  auto parsed = parse_mot(bytes);
  REQUIRE(parsed.ok());
  CHECK(parsed.value().animations[0].bones[0].flags1 == 0x0204);
  const auto model = to_model(parsed.value());
  const auto& key = model.animations[0].tracks[0].keys[0];
  CHECK(key.x == static_cast<double>(0.1F));
  CHECK(key.y == static_cast<double>(-0.2F));
  CHECK(model.animations[0].tracks[0].value_encoding == "f32x4");
  CHECK(model.animations[0].tracks[0].channels == "T");
  CHECK(write_mot(parsed.value()) == bytes);
}

TEST_CASE("an infinite coordinate is refused at its word in either width and on both paths", "[gnt_mot]") {
  // The words are tested on their exponent bits: the error names the word's offset, its value and
  // its bits as stored, the first bad word in file order winning.
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    CoordinateEncoding encoding;
    std::vector<std::byte> pattern;  // the bad word as the file stores it (big-endian)
    std::string expected;
  };
  for (const auto& [encoding, pattern, expected] :
       {Case{CoordinateEncoding::f32, {std::byte{0x7F}, std::byte{0x80}, std::byte{0}, std::byte{0}}, "inf (word 0x7F800000)"},
        Case{CoordinateEncoding::bf16, {std::byte{0xFF}, std::byte{0x80}}, "-inf (word 0xFF80)"}}) {
    INFO(expected);
    MotFile mot;
    mot.slot_count = 1;
    GntAnimation animation;
    const float bad = encoding == CoordinateEncoding::f32 ? inf : -inf;
    // Key 1's z and key 2's x are both bad: key 1's z comes first.
    animation.bones.push_back(make_bone({3, kTrackTranslate | kTrackEnabled, encoding, {0, 7, 9},
                                         {{0.5F, 1.0F, 2.0F, 0.0F}, {1.0F, 2.0F, bad, 1.0F}, {bad, 0.0F, 0.0F, 1.0F}}}));
    mot.animations.push_back(animation);
    const auto bytes = write_mot(mot);
    const auto at = std::search(bytes.begin(), bytes.end(), pattern.begin(), pattern.end());
    REQUIRE(at != bytes.end());
    const auto offset = static_cast<std::uint64_t>(at - bytes.begin());
    for (const auto& error : {parse_mot(bytes).error(), parse_mot_model(bytes).error()}) {
      CHECK(error.offset == offset);
      CHECK_THAT(error.message(), Catch::Contains("a finite coordinate") && Catch::Contains(expected));
    }
  }
}

TEST_CASE("a non-finite coordinate is found in every word position, and the largest finite ones pass", "[gnt_mot]") {
  // The check tests 8 bytes at a time (four bf16 or two float32 words): a bad word in any lane of
  // any step is found, and a lane of finite words next to it is never taken for one.
  const std::uint32_t largest = 0x7F7FFFFFU;  // float32's largest; truncated to bf16, 0x7F7F
  for (const auto encoding : {CoordinateEncoding::bf16, CoordinateEncoding::f32}) {
    for (const std::uint32_t bad : {0x7F800000U, 0xFF800000U, 0x7FC00000U, 0xFFFFFFFFU, 0x7F810000U}) {
      for (std::size_t position = 0; position < 12; ++position) {
        INFO("encoding " << static_cast<int>(encoding) << ", bad word " << bad << " at coordinate " << position);
        std::vector<std::array<float, 4>> coordinates(3);
        for (std::size_t word = 0; word < 12; ++word)
          coordinates[word / 4][word % 4] = std::bit_cast<float>(word % 2 ? largest : largest | 0x80000000U);
        MotFile mot;
        mot.slot_count = 1;
        GntAnimation animation;
        animation.bones.push_back(make_bone({3, kTrackTranslate | kTrackEnabled, encoding, {0, 7, 9}, coordinates}));
        mot.animations.push_back(animation);
        const auto good = write_mot(mot);
        REQUIRE(parse_mot_model(good).ok());
        coordinates[position / 4][position % 4] = std::bit_cast<float>(bad);
        mot.animations[0].bones = {make_bone({3, kTrackTranslate | kTrackEnabled, encoding, {0, 7, 9}, coordinates})};
        const auto bytes = write_mot(mot);
        REQUIRE(bytes.size() == good.size());
        const auto differs = std::mismatch(bytes.begin(), bytes.end(), good.begin());
        REQUIRE(differs.first != bytes.end());
        const auto word_bytes = encoding == CoordinateEncoding::bf16 ? 2 : 4;
        const auto offset = static_cast<std::uint64_t>(differs.first - bytes.begin()) / word_bytes * word_bytes;
        for (const auto& error : {parse_mot(bytes).error(), parse_mot_model(bytes).error()}) {
          CHECK(error.offset == offset);
          CHECK_THAT(error.message(), Catch::Contains("a finite coordinate"));
        }
      }
    }
  }
}

TEST_CASE("padding of the wrong length is written as zeros", "[gnt_mot]") {
  auto parsed = parse_mot(test::handmade_mot());
  REQUIRE(parsed.ok());
  auto mot = parsed.value();
  mot.animations[0].bones[0].junk_after_times.resize(1);
  const auto bytes = write_mot(mot);
  CHECK(bytes[0x20 + 0x5C] == std::byte{0});
  CHECK(bytes[0x20 + 0x60 + 24] == std::byte{0xEE});  // the coordinate junk still fits and is kept
}

TEST_CASE("validate_for_writing names what is inconsistent", "[gnt_mot]") {
  MotFile mot;
  mot.slot_count = 2;
  GntAnimation animation;
  animation.animation_id = 2;
  mot.animations.push_back(animation);
  CHECK_THAT(validate_for_writing(mot).value_or(""), Catch::Contains("outside the 2 slots"));
  mot.animations[0].animation_id = 1;
  mot.animations[0].bones.push_back(make_bone({1, 0x28, CoordinateEncoding::bf16, {0, 1}, {{0, 0, 0, 0}}}));
  CHECK_THAT(validate_for_writing(mot).value_or(""), Catch::Contains("1 coordinate keys for 2 key times"));
  CHECK_THROWS_AS(write_mot(mot), std::invalid_argument);
}

TEST_CASE("track flags map to channel letters", "[gnt_mot]") {
  CHECK(channels_from_track_flags(0x21) == "T");
  CHECK(channels_from_track_flags(0x28) == "R");
  CHECK(channels_from_track_flags(0x22) == "S");
  CHECK(channels_from_track_flags(0x2B) == "TRS");
  CHECK(channels_from_track_flags(0x20).empty());
}

TEST_CASE("a coordinate bone with zero keys round-trips (fuzzer finding)", "[gnt_mot]") {
  MotFile mot;
  mot.slot_count = 1;
  GntAnimation animation;
  animation.bones.push_back(make_bone({0x93, kTrackRotate | kTrackEnabled, CoordinateEncoding::bf16, {}, {}}));
  mot.animations.push_back(animation);
  const auto bytes = write_mot(mot);
  auto parsed = parse_mot(bytes);
  REQUIRE(parsed.ok());
  CHECK(parsed.value().animations[0].bones[0].coordinates_offset == 0x30);
  CHECK(write_mot(parsed.value()) == bytes);
}

namespace {

// The two paths to the model agree on every field, keys bit for bit.
void check_same_model(const model::AnimationFile& direct, const model::AnimationFile& mapped) {
  REQUIRE(direct.animations.size() == mapped.animations.size());
  REQUIRE(direct.properties.size() == mapped.properties.size());
  for (std::size_t p = 0; p < direct.properties.size(); ++p) {
    CHECK(direct.properties[p].name == mapped.properties[p].name);
    CHECK(direct.properties[p].value == mapped.properties[p].value);
  }
  for (std::size_t a = 0; a < direct.animations.size(); ++a) {
    const auto& one = direct.animations[a];
    const auto& two = mapped.animations[a];
    CHECK((one.slot == two.slot && one.motion_id == two.motion_id && one.play_speed == two.play_speed &&
           one.end_time == two.end_time && one.frame_count == two.frame_count));
    REQUIRE(one.tracks.size() == two.tracks.size());
    for (std::size_t t = 0; t < one.tracks.size(); ++t) {
      const auto& x = one.tracks[t];
      const auto& y = two.tracks[t];
      CHECK((x.bone_id == y.bone_id && x.flags == y.flags && x.track_flags == y.track_flags &&
             x.channels == y.channels && x.value_encoding == y.value_encoding && x.total_time == y.total_time));
      CHECK(model::identical(x.keys, y.keys));
    }
  }
}

}  // namespace

TEST_CASE("the index's direct decode gives what the file's structs map to", "[gnt_mot]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 5;
  options.include_problem_files = false;
  const auto summary = write_sample_dump(dir.path(), options);
  std::vector<std::vector<std::byte>> files{test::handmade_mot()};
  for (const auto& relative : summary.files) files.push_back(test::read_bytes(dir / relative));
  for (std::size_t i = 0; i < files.size(); ++i) {
    INFO("file " << i);
    auto mot = parse_mot(files[i]);
    auto direct = parse_mot_model(files[i]);
    REQUIRE(mot.ok());
    REQUIRE(direct.ok());
    check_same_model(direct.value(), to_model(mot.value()));
  }
  // And they fail alike: the same message at the same offset.
  auto broken = test::handmade_mot();
  broken[0x90] = std::byte{0x7F};  // bone 0, key 2, x becomes bf16 0x7FC0: NaN
  broken[0x91] = std::byte{0xC0};
  const auto mot = parse_mot(broken);
  const auto direct = parse_mot_model(broken);
  REQUIRE_FALSE(mot.ok());
  REQUIRE_FALSE(direct.ok());
  CHECK(direct.error().message() == mot.error().message());
  CHECK(direct.error().offset == mot.error().offset);
  // Two faults: the first in file order wins, on both paths (the keys are read a run at a time).
  auto twice = test::handmade_mot();
  twice[0x8A] = std::byte{0x7F};  // bone 0, key 1, y: NaN, before key 2's x
  twice[0x8B] = std::byte{0xC0};
  twice[0x90] = std::byte{0x7F};
  twice[0x91] = std::byte{0xC0};
  for (const auto& error : {parse_mot(twice).error(), parse_mot_model(twice).error()}) {
    CHECK(error.offset == 0x8A);
    CHECK_THAT(error.message(), Catch::Contains("a finite coordinate"));
  }
  // An empty input is a precise error, not an empty model.
  const auto empty = parse_mot_model({});
  REQUIRE_FALSE(empty.ok());
  CHECK_THAT(empty.error().message(), Catch::Contains("16-byte MOT header"));
}
