// The real LightWave files in ../shared/corpus/real/lightwave, against the figures in SOURCES.md.
#include <catch2/catch.hpp>
#include <map>

#include "formats/lightwave/lw_parser.h"
#include "formats/lightwave/lw_writer.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::lightwave;

namespace {

std::optional<std::filesystem::path> lightwave_dir() {
  const auto shared = test::shared_dir();
  if (!shared) return std::nullopt;
  return *shared / "corpus/real/lightwave";
}

LwFile load(const std::filesystem::path& path) {
  auto parsed = parse_lw(test::read_bytes(path));
  INFO(path.string());
  if (!parsed.ok()) FAIL(parsed.error().message());
  return std::move(parsed).value();
}

std::size_t linear_keys(const LwFile& file) {
  std::size_t count = 0;
  for (const auto& key : file.channels[0].keys) count += key.linear_flag == 1;
  return count;
}

}  // namespace

TEST_CASE("real LightWave files parse with the key counts SOURCES.md lists", "[lightwave][real]") {
  const auto dir = lightwave_dir();
  ANIMDEX_SKIP_UNLESS(dir, "../shared/corpus/real not found: skipping the real LightWave files");
  const std::string eech = "enemy-engaged-developers__eech_source_code/setup/cohokum/graphics/cockpits/";
  const std::string astro = "astrofra__legacy-lightwave-projects/content/";
  // path -> (version, channels, keys per channel)
  const std::map<std::string, std::tuple<int, std::size_t, std::vector<std::size_t>>> expected = {
      {eech + "kiowa/JOYSTICK.MOT", {1, 9, std::vector<std::size_t>(9, 289)}},
      {eech + "kiowa/FOREARM.MOT", {1, 9, std::vector<std::size_t>(9, 289)}},
      {eech + "kiowa/SHOULDER.MOT", {1, 9, std::vector<std::size_t>(9, 289)}},
      {eech + "blackshark/JOYSTICK.MOT", {1, 9, std::vector<std::size_t>(9, 289)}},
      {"derived-from-assimp/move_xz_bezier_simple_cube.mot", {3, 9, {3, 1, 3, 1, 1, 1, 1, 1, 1}}},
      {"derived-from-assimp/move_y_pre_ofrep_post_osc_simple_cube.mot", {3, 9, {2, 3, 2, 2, 2, 2, 2, 2, 2}}},
      {astro + "demo-couloir-14/aa.env", {1, 1, {7}}},
      {astro + "demo-couloir-14/titles/aa.env", {1, 1, {4}}},
      {astro + "nxng-experiments/l.mot", {1, 9, std::vector<std::size_t>(9, 1)}},
      {astro + "nxng-experiments/s1.env", {1, 1, {9}}},
      {astro + "nxng-experiments/s2.env", {1, 1, {9}}},
  };
  for (const auto& [relative, figures] : expected) {
    INFO(relative);
    const auto file = load(*dir / relative);
    CHECK(file.version == std::get<0>(figures));
    REQUIRE(file.channels.size() == std::get<1>(figures));
    for (std::size_t c = 0; c < file.channels.size(); ++c) CHECK(file.channels[c].keys.size() == std::get<2>(figures)[c]);
    CHECK(file.warnings.empty());
  }
}

TEST_CASE("real LightWave values match SOURCES.md", "[lightwave][real]") {
  const auto dir = lightwave_dir();
  ANIMDEX_SKIP_UNLESS(dir, "../shared/corpus/real not found: skipping the real LightWave files");
  const std::string eech = "enemy-engaged-developers__eech_source_code/setup/cohokum/graphics/cockpits/";
  const auto forearm = load(*dir / (eech + "kiowa/FOREARM.MOT"));
  CHECK(forearm.channels[0].keys[0].value == 0.035694);
  CHECK(forearm.channels[1].keys[0].value == -0.28);
  CHECK(forearm.channels[3].keys[0].value == -5.650934);
  CHECK(forearm.channels[4].keys[0].value == -42.93967);
  CHECK(forearm.channels[5].keys[0].value == -38.6828);
  CHECK(forearm.channels[0].keys.back().time == 288.0);
  CHECK(linear_keys(forearm) == 0);
  const auto shoulder = load(*dir / (eech + "kiowa/SHOULDER.MOT"));
  CHECK(linear_keys(shoulder) == 1);
  CHECK(shoulder.channels[0].keys[0].linear_flag == 1);
  const auto joystick = load(*dir / (eech + "kiowa/JOYSTICK.MOT"));
  CHECK(linear_keys(joystick) == 17);
  for (std::size_t k = 0; k < 289; k += 17) CHECK(joystick.channels[0].keys[k].linear_flag == 1);
  double pitch_min = 1e9, pitch_max = -1e9;
  for (const auto& key : joystick.channels[4].keys) {
    pitch_min = std::min(pitch_min, key.value);
    pitch_max = std::max(pitch_max, key.value);
  }
  CHECK(pitch_min == -15.0);
  CHECK(pitch_max == 1.0);
  const auto blackshark = load(*dir / (eech + "blackshark/JOYSTICK.MOT"));
  CHECK(blackshark.channels[0].keys[0].value == -0.375);
  CHECK(linear_keys(blackshark) == 17);

  const auto bezier = load(*dir / "derived-from-assimp/move_xz_bezier_simple_cube.mot");
  CHECK(bezier.channels[0].pre_behavior == kReset);
  CHECK(bezier.channels[0].post_behavior == kConstant);
  for (const auto& key : bezier.channels[0].keys) CHECK(key.shape == kBezier2D);
  CHECK(bezier.channels[2].keys[1].time == Approx(1.3333).margin(1e-4));
  const auto oscillate = load(*dir / "derived-from-assimp/move_y_pre_ofrep_post_osc_simple_cube.mot");
  CHECK(oscillate.channels[1].pre_behavior == kOffsetRepeat);
  CHECK(oscillate.channels[1].post_behavior == kOscillate);
  CHECK(oscillate.channels[0].pre_behavior == kReset);
  CHECK(oscillate.channels[1].keys[2].value == 0.98909872770309448);
}

TEST_CASE("real LightWave files round-trip through the writer", "[lightwave][real]") {
  const auto dir = lightwave_dir();
  ANIMDEX_SKIP_UNLESS(dir, "../shared/corpus/real not found: skipping the real LightWave files");
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(*dir)) {
    if (!entry.is_regular_file()) continue;
    INFO(entry.path().string());
    const auto original = load(entry.path());
    auto rewritten = parse_lw(test::bytes_of(write_lw(original)));
    REQUIRE(rewritten.ok());
    const auto& again = rewritten.value();
    REQUIRE(again.channels.size() == original.channels.size());
    for (std::size_t c = 0; c < original.channels.size(); ++c) {
      REQUIRE(again.channels[c].keys.size() == original.channels[c].keys.size());
      CHECK(again.channels[c].pre_behavior == original.channels[c].pre_behavior);
      for (std::size_t k = 0; k < original.channels[c].keys.size(); ++k) {
        const auto& a = original.channels[c].keys[k];
        const auto& b = again.channels[c].keys[k];
        CHECK((a.value == b.value && a.time == b.time && a.shape == b.shape && a.params == b.params &&
               a.linear_flag == b.linear_flag));
      }
    }
    ++files;
  }
  CHECK(files == 13);
}
