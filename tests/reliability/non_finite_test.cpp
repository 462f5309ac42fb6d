// Issue 12.1: a NaN or infinite number is a parse error of that file, with the offset of the number.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <algorithm>
#include <cstring>
#include <limits>

#include "formats/gnt_mot/gnt_mot_parser.h"
#include "formats/kh2/kh2_builder.h"
#include "formats/registry.h"
#include "formats/kh2/kh2_motion.h"
#include "formats/kh2/kh2_motion_writer.h"
#include "model/validate.h"
#include "sample/sample_dump.h"
#include "support/corrupt_input.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

std::vector<std::byte> sample_mot(const test::TempDir& dir, const std::string& relative) {
  SampleDumpOptions options;
  options.character_count = 3;
  write_sample_dump(dir / "s", options);
  return test::read_bytes(dir / "s" / relative);
}

}  // namespace

TEST_CASE("a GNT key time that is NaN or infinite fails the parse at its offset", "[reliability]") {
  test::TempDir dir;
  auto bytes = sample_mot(dir, "files/chr/kak/0001.mot");
  REQUIRE(gnt_mot::parse_mot(bytes));
  for (const std::uint32_t bits : {0xFFFFFFFFU, 0x7F800000U, 0xFF800000U, 0x7F000000U /* 1.7e38 s */}) {
    INFO(bits);
    auto broken = bytes;
    for (int i = 0; i < 4; ++i) broken[928 + i] = static_cast<std::byte>((bits >> (24 - 8 * i)) & 0xFF);
    const auto parsed = gnt_mot::parse_mot(broken);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().offset == 928);
    CHECK_THAT(parsed.error().message(), Catch::Contains("key time"));
  }
}

TEST_CASE("a GNT coordinate that is NaN is an error at its word, not a time-only key", "[reliability]") {
  test::TempDir dir;
  auto bytes = sample_mot(dir, "files/chr/kak/0001.mot");
  const auto mot = gnt_mot::parse_mot(bytes);
  REQUIRE(mot);
  const auto& animation = mot.value().animations.at(0);
  const auto bone = std::find_if(animation.bones.begin(), animation.bones.end(),
                                 [](const auto& b) { return b.coordinates_offset != 0; });
  REQUIRE(bone != animation.bones.end());
  const std::size_t at = animation.file_offset + bone->coordinates_offset + 2;  // key 0's y, bf16
  bytes.at(at) = std::byte{0x7F};
  bytes.at(at + 1) = std::byte{0xC0};  // bf16 quiet NaN
  const auto parsed = gnt_mot::parse_mot(bytes);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().offset == at);
  CHECK_THAT(parsed.error().message(), Catch::Contains("a finite coordinate"));
}

TEST_CASE("a KH2 key value that a curve uses must be finite, unused table entries may hold anything",
          "[reliability]") {
  auto bytes = kh2::write_motion(kh2::build_interpolated_motion(4, {1, 2}));
  const auto motion = kh2::parse_motion(bytes);
  REQUIRE(motion);
  const auto& body = *motion.value().interpolated;
  const auto used = body.keys[static_cast<std::size_t>(body.forward_curves[0].first_key)].value_index;
  auto broken = bytes;
  test::put(broken, body.value_at + 4 * static_cast<std::size_t>(used), 0x7FC00000U, 4, LE);  // quiet NaN
  const auto parsed = kh2::parse_motion(broken);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().offset == body.value_at + 4 * static_cast<std::uint64_t>(used));
  CHECK_THAT(parsed.error().message(), Catch::Contains("a finite float32 for a key value"));

  auto times = bytes;
  const auto time_index = body.keys[static_cast<std::size_t>(body.forward_curves[0].first_key)].time_index;
  test::put(times, body.key_time_at + 4 * std::size_t{time_index}, 0xFF800000U, 4, LE);  // -inf
  const auto bad_time = kh2::parse_motion(times);
  REQUIRE_FALSE(bad_time);
  CHECK(bad_time.error().offset == body.key_time_at + 4 * std::uint64_t{time_index});
}

TEST_CASE("validate() names the first broken rule of a model", "[reliability]") {
  model::AnimationFile file;
  auto& animation = file.animations.emplace_back();
  auto& track = animation.tracks.emplace_back();
  track.keys.push_back({0.0, 0, 1.0, 2.0, 3.0, 4.0});
  CHECK_FALSE(model::validate(file));
  // A column per key is the container's rule: a key carrying other columns is refused at once.
  CHECK_THROWS_AS(track.keys.push_back({1.0, std::nullopt, 1.0, 2.0, 3.0, 4.0}), std::invalid_argument);
  track.keys.push_back({std::numeric_limits<double>::quiet_NaN(), 1, 1.0, 1.0, 1.0, 1.0});
  CHECK(model::validate(file) == "animation 0 track 0: key 1: time is not a finite number");
  track.keys.time().back() = 1.0;
  track.keys.y().back() = std::numeric_limits<double>::infinity();
  CHECK(model::validate(file) == "animation 0 track 0: key 1: a value is not a finite number");
  track.keys.y().back() = 2.0;
  track.splines = model::SplineColumns(1, 2, false);
  CHECK(model::validate(file) == "animation 0 track 0: 1 splines for 2 keys (empty or one per key)");
  track.splines = model::SplineColumns(2, 2, false);
  track.splines.parameter(1)[1] = std::numeric_limits<double>::infinity();
  CHECK(model::validate(file) == "animation 0 track 0: spline 1: a parameter is not a finite number");
  track.splines.clear();
  track.keys.push_back({0.5, 2, 1.0, 1.0, 1.0, 1.0});
  CHECK(model::validate(file) == "animation 0 track 0: key 2: time 0.5 before the previous key's 1 (keys are in time order)");
  track.keys.time().back() = 1.5;
  track.channels = "RT";
  CHECK_FALSE(model::validate(file));  // a channel's name where the track has no bone (a Kuper axis may be "RT")
  track.bone_id = 3;
  CHECK(model::validate(file) == "animation 0 track 0: channel letters 'RT' not in the order T, R, S without repeats");
  track.channels = "na\x1bme";
  CHECK(model::validate(file) == "animation 0 track 0: channel name with a character outside printable ASCII");
  track.channels = "TS";
  file.format_rows.push_back({"mset_slots", std::nullopt, {{"animation_id", model::AnimationRef{3}}}});
  CHECK(model::validate(file) == "mset_slots row 0: animation_id: points at animation 3 of 1");
  file.format_rows.back() = {"node_states", 1, {{"node_index", model::number(0)}}};
  CHECK(model::validate(file) == "node_states row 0: describes animation 1 of 1");
  file.format_rows.back() = {"kh2_motions", 0, {{"fps", model::number(std::numeric_limits<double>::infinity())}}};
  CHECK(model::validate(file) == "kh2_motions row 0: fps: not a finite number");
  file.format_rows.clear();
  CHECK_FALSE(model::validate(file));
}

TEST_CASE("every sample and real file parses to a model that keeps the rules", "[reliability]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.include_kh2 = true;
  options.include_nsbca = true;
  write_sample_dump(dir / "s", options);
  std::vector<fs::path> roots{dir / "s"};
  if (const auto shared = test::shared_dir()) roots.push_back(*shared / "corpus" / "real");
  else WARN("../shared is absent: only the sample dump is checked");
  std::size_t parsed = 0;
  for (const auto& root : roots)
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (!entry.is_regular_file()) continue;
      const auto bytes = test::read_bytes(entry.path());
      const auto* format = detect_format(bytes, bytes.size());
      if (!format) continue;
      const auto model = format->parse(bytes);
      if (!model) continue;  // the sample's broken files
      INFO(entry.path().string());
      CHECK(model::validate(model.value()) == std::nullopt);
      ++parsed;
    }
  CHECK(parsed >= 20);
}
