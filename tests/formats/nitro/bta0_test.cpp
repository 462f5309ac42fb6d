// BTA0 (texture SRT) files built with the project's writer: round trips over every case the real
// files lack (several animations, an animation without materials, steps 2 and 4, fx32 arrays,
// rotation arrays), the runtime's floor blending worked by hand at every frame, the common model
// and the pose.
#include <catch2/catch.hpp>
#include <cmath>

#include "formats/nitro/bta0_builder.h"
#include "formats/nitro/bta0_format.h"
#include "formats/nitro/bta0_parser.h"
#include "formats/nitro/nitro_kinds_support.h"
#include "formats/registry.h"
#include "model/validate.h"

using namespace animdex;
using namespace animdex::nitro;

namespace {

constexpr double kUnit = 4096.0;

SrtMaterial material(const std::string& name, std::array<SrtValue, 5> values) { return {name, std::move(values)}; }

// The identity the converter writes for a part left alone: scale 1, rotation (sin 0, cos 1), translation 0.
std::array<SrtValue, 5> identity(int frames) {
  return {srt_constant(4096, true, frames), srt_constant(4096, true, frames), srt_rotation_constant(0, 4096, frames),
          srt_constant(0, true, frames), srt_constant(0, true, frames)};
}

// transS: fx16, step 2, LAST_INTERP 6 of 8 frames -> samples at frames 0, 2, 4, 6 and 7.
const std::vector<std::int32_t> kStep2Samples = {0, 100, -101, 8, -3};
// ... evaluated at frames 0..7 by hand: odd frames up to 6 average their neighbours with floor
// ((100 - 101) >> 1 = -1, (-101 + 8) >> 1 = -47), frame 7 is past LAST_INTERP: sample 6/2 + 1.
const std::vector<std::int32_t> kStep2Values = {0, 50, 100, -1, -101, -47, 8, -3};

// scaleS: fx32, step 4, LAST_INTERP 8 of 11 frames -> samples at frames 0, 4, 8, 9 and 10.
const std::vector<std::int32_t> kStep4Samples = {-10, 3, -20, 5, 6};
// ... frames 0..10: f%4 == 1 -> (3a[k] + a[k+1]) >> 2, 2 -> (a[k] + a[k+1]) >> 1, 3 -> (a[k] + 3a[k+1]) >> 2;
// (-30 + 3) >> 2 = -7, -7 >> 1 = -4, (9 - 10) >> 2 = -1, (9 - 20) >> 2 = -3, -17 >> 1 = -9, (-60 + 3) >> 2 = -15;
// frames 9 and 10 are past LAST_INTERP: a[8/4 + f%4].
const std::vector<std::int32_t> kStep4Values = {-10, -7, -4, -1, 3, -3, -9, -15, -20, 5, 6};

// rot: step 2, LAST_INTERP 2 of 4 frames: (sin, cos) = (0, 1), (-4095, 1), (100, -4096) in 1/4096.
const std::vector<std::int32_t> kRotationSamples = {sin_cos_word(0, 4096), sin_cos_word(-4095, 1),
                                                    sin_cos_word(100, -4096)};

Bta0File fixture() {
  Bta0File file;
  TexSrtAnimation first{"srt_a", 8, 1, 0, {}};
  auto step2 = identity(8);
  step2[kScaleT] = srt_array({4096, 4096, 8192, 8192, 12288, -4096, 1, 0}, false, 1, 8);  // fx32, step 1
  step2[kTransS] = srt_array(kStep2Samples, true, 2, 6);
  step2[kTransT] = srt_constant(-1024, true, 8);  // -0.25, as the converter stores it (FX16 flag, fx32 ex)
  auto rotating = identity(8);
  rotating[kScaleS] = srt_array({4096, 4000, 3900, 3800, 3700, 3600, 3500, 3400}, true, 1, 8);  // fx16
  rotating[kScaleT] = srt_array({4096, 5000, 6000, 7000, 8000, 9000, 10000, 110000}, false, 1, 8);  // fx32
  rotating[kRotation] = srt_array({sin_cos_word(0, 4096), sin_cos_word(2896, 2896), sin_cos_word(4096, 0),
                                   sin_cos_word(2896, -2896), sin_cos_word(0, -4096), sin_cos_word(-2896, -2896),
                                   sin_cos_word(-4096, 0), sin_cos_word(-2896, 2896)},
                                  false, 1, 8);
  first.materials = {material("mat_step2", step2), material("mat_rot", rotating), material("mat_still", identity(8))};
  TexSrtAnimation empty{"srt_empty", 2, 0, 0, {}};  // a 0-entry material dictionary (2 real files have one)
  TexSrtAnimation second{"srt_b", 11, 0, 0, {}};
  auto step4 = identity(11);
  step4[kScaleS] = srt_array(kStep4Samples, false, 4, 8);
  step4[kScaleT] = srt_constant(8192, false, 11);  // an fx32 constant (FX16 clear): 2.0
  second.materials = {material("mat_step4", step4)};
  TexSrtAnimation third{"srt_rot2", 4, 0, 0, {}};
  auto rotation2 = identity(4);
  rotation2[kRotation] = srt_array(kRotationSamples, false, 2, 2);
  third.materials = {material("mat_rot2", rotation2)};
  file.animations = {first, empty, second, third};
  return file;
}

}  // namespace

TEST_CASE("BTA0 writer and parser round trip: several animations, no materials, steps 2 and 4, fx32, rotation arrays",
          "[nitro][nsbta][writer]") {
  const Bta0File original = fixture();
  const auto bytes = write_bta0(original);
  const Bta0File parsed = test::parsed_ok(parse_bta0(bytes));
  CHECK(parsed.warnings.empty());
  CHECK(parsed.version == 1);
  REQUIRE(parsed.animations.size() == 4);
  CHECK(parsed.animations == original.animations);
  CHECK(parsed.animations[1].materials.empty());
  CHECK(parsed.animations[0].flag == 1);
  CHECK(write_bta0(parsed) == bytes);
  // The constant -0.25 is stored as the fx32 `ex` word and, unreferenced, as fx16 in the value area.
  CHECK(srt_scalar_at(parsed.animations[0].materials[0].values[kTransT], 3) == -0.25);
  CHECK(srt_scalar_at(parsed.animations[2].materials[0].values[kScaleT], 0) == 2.0);
}

TEST_CASE("BTA0 values follow the runtime's step 2 and 4 indexing and floor at every frame", "[nitro][nsbta]") {
  const Bta0File file = test::parsed_ok(parse_bta0(write_bta0(fixture())));
  const SrtValue& step2 = file.animations[0].materials[0].values[kTransS];
  for (int frame = 0; frame < 8; ++frame) {
    INFO("step 2, frame " << frame);
    CHECK(srt_scalar_at(step2, frame) == kStep2Values[static_cast<std::size_t>(frame)] / kUnit);
  }
  const SrtValue& step4 = file.animations[2].materials[0].values[kScaleS];
  for (int frame = 0; frame < 11; ++frame) {
    INFO("step 4, frame " << frame);
    CHECK(srt_scalar_at(step4, frame) == kStep4Values[static_cast<std::size_t>(frame)] / kUnit);
  }
  // Sin and cos blend on their own, unnormalised: frame 1 = ((0 - 4095) >> 1, (4096 + 1) >> 1) = (-2048, 2048).
  const SrtValue& rotation = file.animations[3].materials[0].values[kRotation];
  const std::vector<std::array<double, 2>> expected = {
      {0, 1}, {-2048 / kUnit, 2048 / kUnit}, {-4095 / kUnit, 1 / kUnit}, {100 / kUnit, -1}};
  for (int frame = 0; frame < 4; ++frame) {
    INFO("rotation, frame " << frame);
    CHECK(srt_sin_cos_at(rotation, frame) == expected[static_cast<std::size_t>(frame)]);
  }
}

TEST_CASE("BTA0 model: scale, rotation and translation tracks per material, keyed at the sampled frames",
          "[nitro][nsbta][model]") {
  const auto model = bta0_to_model(test::parsed_ok(parse_bta0(write_bta0(fixture()))));
  CHECK_FALSE(model::validate(model));
  REQUIRE(model.animations.size() == 4);
  const auto& first = model.animations[0];
  CHECK(first.name == "srt_a");
  CHECK(first.frame_count == 8);
  CHECK(first.end_time == 7.0);
  REQUIRE(first.tracks.size() == 9);
  CHECK(model.animations[1].tracks.empty());
  for (std::size_t t = 0; t < first.tracks.size(); ++t) {
    CHECK_FALSE(first.tracks[t].bone_id);  // materials are not bones
    CHECK(first.tracks[t].channels == std::array{"scale", "rotation", "translation"}[t % 3]);
  }
  CHECK(first.tracks[3].node_name == "mat_rot");

  // mat_step2 translation: transS step 2 samples frames 0, 2, 4, 6, 7; transT constant -0.25.
  const auto& translation = first.tracks[2];
  CHECK(translation.value_encoding == "fx16");
  REQUIRE(translation.keys.size() == 5);
  const std::vector<int> frames = {0, 2, 4, 6, 7};
  for (std::size_t k = 0; k < frames.size(); ++k) {
    CHECK(translation.keys.time()[k] == frames[k]);
    CHECK(translation.keys.frame()[k] == frames[k]);
    CHECK(translation.keys.x()[k] == kStep2Values[static_cast<std::size_t>(frames[k])] / kUnit);
    CHECK(translation.keys.y()[k] == -0.25);
  }
  CHECK(translation.total_time == 7.0);
  CHECK(first.tracks[0].value_encoding == "fx32");      // scaleS constant, scaleT an fx32 array
  CHECK(first.tracks[0].keys.size() == 8);
  CHECK(first.tracks[3].value_encoding == "fx16+fx32");  // mat_rot: scaleS fx16, scaleT fx32
  CHECK(first.tracks[3].keys.y()[7] == 110000 / kUnit);
  CHECK(first.tracks[4].value_encoding == "sincos16");
  CHECK(first.tracks[4].keys.size() == 8);
  CHECK(first.tracks[4].keys.x()[1] == 2896 / kUnit);
  CHECK(first.tracks[4].keys.y()[3] == -2896 / kUnit);

  // Every part constant: one key at frame 0, stored fx32 (`ex`).
  for (std::size_t t = 6; t < 9; ++t) {
    REQUIRE(first.tracks[t].keys.size() == 1);
    CHECK(first.tracks[t].keys.time()[0] == 0);
  }
  CHECK(first.tracks[6].value_encoding == "fx32");
  CHECK(first.tracks[6].keys.x()[0] == 1.0);
  CHECK(first.tracks[7].keys.x()[0] == 0.0);  // sin
  CHECK(first.tracks[7].keys.y()[0] == 1.0);  // cos

  // Step 4: keys at 0, 4, 8, 9, 10 with the evaluated values.
  const auto& step4 = model.animations[2].tracks[0];
  REQUIRE(step4.keys.size() == 5);
  CHECK(step4.keys.time()[2] == 8);
  CHECK(step4.keys.x()[3] == 5 / kUnit);
  CHECK(step4.keys.y()[0] == 2.0);
}

TEST_CASE("BTA0 pose: S, R (sin, cos), the angle and T per material at an integer frame", "[nitro][nsbta][pose]") {
  const auto bytes = write_bta0(fixture());
  const Pose pose = test::pose_ok(&bta0_pose, bytes, 5, "srt_a");
  CHECK(pose.rows_name == "materials");
  CHECK(pose.columns == std::vector<std::string>{"material", "S", "R", "angle", "T"});
  CHECK(pose.vector_sizes == std::vector<std::size_t>{0, 2, 2, 0, 2});
  REQUIRE(pose.rows.size() == 3);
  CHECK(std::get<std::string>(pose.rows[0][0]) == "mat_step2");
  CHECK(test::vector_cell(pose, 0, 1) == std::vector<double>{1.0, -1.0});
  CHECK(test::vector_cell(pose, 0, 4) == std::vector<double>{-47 / kUnit, -0.25});
  CHECK(test::vector_cell(pose, 1, 2) == std::vector<double>{-2896 / kUnit, -2896 / kUnit});
  CHECK(std::get<double>(pose.rows[1][3]) == Approx(-135.0));

  const Pose rotated = test::pose_ok(&bta0_pose, bytes, 1, "srt_rot2");
  CHECK(std::get<std::int64_t>(rotated.about[3].second) == 1);
  CHECK(test::vector_cell(rotated, 0, 2) == std::vector<double>{-0.5, 0.5});
  CHECK(std::get<double>(rotated.rows[0][3]) == Approx(-45.0));
  CHECK(test::pose_ok(&bta0_pose, bytes, 0, "srt_empty").rows.empty());

  PoseRequest past;
  past.frame = 8;
  CHECK(std::get<CapabilityError>(bta0_pose(bytes, past)).kind == CapabilityError::Kind::usage);
  PoseRequest between;
  between.frame = 1.5;
  CHECK(std::get<CapabilityError>(bta0_pose(bytes, between)).kind == CapabilityError::Kind::usage);
  PoseRequest unknown;
  unknown.frame = 0;
  unknown.animation = "nope";
  CHECK_THAT(std::get<CapabilityError>(bta0_pose(bytes, unknown)).message, Catch::Contains("srt_a, srt_empty"));
}

TEST_CASE("nsbta is registered and detected by its magic", "[nitro][nsbta]") {
  const auto bytes = write_bta0(fixture());
  const FormatModule* format = detect_format(bytes, bytes.size());
  REQUIRE(format != nullptr);
  CHECK(format->id == "nsbta");
  CHECK(format->pose != nullptr);
  const auto parsed = format->parse(bytes);
  REQUIRE(parsed.ok());
  CHECK(parsed.value().animations.size() == 4);
}
