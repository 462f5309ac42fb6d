// BMA0 (material colour) files built with the project's writer: round trips over what the real
// files lack (several animations, an animation without materials, steps 2 and 4, animated
// specular and emission), the runtime's per-channel floor blending worked by hand at every frame,
// the common model and the pose.
#include <catch2/catch.hpp>

#include "formats/nitro/bma0_builder.h"
#include "formats/nitro/bma0_format.h"
#include "formats/nitro/bma0_parser.h"
#include "formats/nitro/nitro_kinds_support.h"
#include "formats/registry.h"
#include "model/validate.h"

using namespace animdex;
using namespace animdex::nitro;

namespace {

using Rgb = std::array<std::int64_t, 3>;

// The converter's untouched material: diffuse 0x6739 (25, 25, 25), ambient white, no specular or
// emission, alpha 31 (opaque).
std::array<ColorValue, 5> plain(int frames) {
  return {color_constant(0x6739, frames), color_constant(0x7FFF, frames), color_constant(0, frames),
          color_constant(0, frames), color_constant(31, frames)};
}

Bma0File fixture() {
  auto rgb = plain(4);
  // Diffuse, step 2, LAST_INTERP 2 of 4 frames: samples at frames 0, 2, 3.
  rgb[kDiffuse] = color_array({rgb555(31, 0, 1), rgb555(0, 31, 2), rgb555(10, 10, 10)}, 2, 2);
  rgb[kSpecular] = color_array({rgb555(1, 2, 3), rgb555(4, 5, 6), rgb555(7, 8, 9), rgb555(31, 31, 31)}, 1, 4);
  auto alpha = plain(4);
  alpha[kAmbient] = color_array({rgb555(0, 0, 0), rgb555(8, 8, 8), rgb555(16, 16, 16), rgb555(24, 24, 24)}, 1, 4);
  alpha[kAlpha] = color_array({31, 20, 10, 0}, 1, 4);
  auto step4 = plain(6);
  // Alpha and emission, step 4, LAST_INTERP 4 of 6 frames: samples at frames 0, 4, 5.
  step4[kAlpha] = color_array({31, 0, 17}, 4, 4);
  step4[kEmission] = color_array({rgb555(4, 0, 31), rgb555(0, 3, 0), rgb555(8, 8, 8)}, 4, 4);
  Bma0File file;
  file.animations = {{"col_a", 4, 1, {{"mat_rgb", rgb}, {"mat_alpha", alpha}}},
                     {"col_empty", 1, 0, {}},  // a 0-entry material dictionary
                     {"col_b", 6, 0, {{"mat_step4", step4}}}};
  return file;
}

}  // namespace

TEST_CASE("BMA0 writer and parser round trip: several animations, no materials, steps 2 and 4, every colour animated",
          "[nitro][nsbma][writer]") {
  const Bma0File original = fixture();
  const auto bytes = write_bma0(original);
  const Bma0File parsed = test::parsed_ok(parse_bma0(bytes));
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.animations.size() == 3);
  CHECK(parsed.animations == original.animations);
  CHECK(parsed.animations[0].flag == 1);
  CHECK(write_bma0(parsed) == bytes);
}

TEST_CASE("BMA0 values: each RGB555 channel and alpha blended with floor, steps 2 and 4", "[nitro][nsbma]") {
  const Bma0File file = test::parsed_ok(parse_bma0(write_bma0(fixture())));
  const auto& diffuse = file.animations[0].materials[0].values[kDiffuse];
  // Frame 1 averages (31, 0, 1) and (0, 31, 2) per channel: (15, 15, 1); frame 3 is past LAST_INTERP.
  const std::vector<Rgb> step2 = {{31, 0, 1}, {15, 15, 1}, {0, 31, 2}, {10, 10, 10}};
  for (int frame = 0; frame < 4; ++frame) {
    INFO("diffuse, frame " << frame);
    CHECK(rgb_at(diffuse, frame) == step2[static_cast<std::size_t>(frame)]);
  }
  const auto& values = file.animations[2].materials[0].values;
  // Alpha 31, 0, 17: (3*31 + 0) >> 2 = 23, 31 >> 1 = 15, (31 + 0) >> 2 = 7, then a[4/4 + 1] = 17.
  const std::vector<std::int64_t> alpha = {31, 23, 15, 7, 0, 17};
  // Emission (4, 0, 31), (0, 3, 0), then (8, 8, 8) past LAST_INTERP; blending the whole word would
  // carry between channels (frame 2 would give R 18).
  const std::vector<Rgb> emission = {{4, 0, 31}, {3, 0, 23}, {2, 1, 15}, {1, 2, 7}, {0, 3, 0}, {8, 8, 8}};
  for (int frame = 0; frame < 6; ++frame) {
    INFO("step 4, frame " << frame);
    CHECK(alpha_at(values[kAlpha], frame) == alpha[static_cast<std::size_t>(frame)]);
    CHECK(rgb_at(values[kEmission], frame) == emission[static_cast<std::size_t>(frame)]);
  }
  CHECK(rgb_at(values[kDiffuse], 3) == Rgb{25, 25, 25});
  CHECK(alpha_at(file.animations[0].materials[0].values[kAlpha], 2) == 31);
}

TEST_CASE("BMA0 model: five tracks per material keyed at the sampled frames", "[nitro][nsbma][model]") {
  const auto model = bma0_to_model(test::parsed_ok(parse_bma0(write_bma0(fixture()))));
  CHECK_FALSE(model::validate(model));
  REQUIRE(model.animations.size() == 3);
  const auto& first = model.animations[0];
  REQUIRE(first.tracks.size() == 10);
  const std::array<const char*, 5> channels = {"diffuse", "ambient", "specular", "emission", "alpha"};
  for (std::size_t t = 0; t < 10; ++t) {
    CHECK(first.tracks[t].channels == channels[t % 5]);
    CHECK_FALSE(first.tracks[t].bone_id);  // materials are not bones
    CHECK(first.tracks[t].node_name == (t < 5 ? "mat_rgb" : "mat_alpha"));
    CHECK(first.tracks[t].value_encoding == (t % 5 == 4 ? "u8" : "rgb555"));
  }
  const auto& diffuse = first.tracks[0];
  REQUIRE(diffuse.keys.size() == 3);  // step 2: frames 0, 2, 3
  CHECK(std::vector<double>(diffuse.keys.time().begin(), diffuse.keys.time().end()) == std::vector<double>{0, 2, 3});
  CHECK(diffuse.keys.x()[1] == 0);
  CHECK(diffuse.keys.y()[1] == 31);
  CHECK(diffuse.keys.z()[2] == 10);
  const auto& ambient = first.tracks[1];  // constant white: one key
  REQUIRE(ambient.keys.size() == 1);
  CHECK(ambient.keys.x()[0] == 31);
  CHECK(ambient.keys.z()[0] == 31);
  const auto& alpha = first.tracks[9];
  CHECK(alpha.keys.columns() == (model::KeyColumns::kFrame | model::KeyColumns::kX));
  CHECK(std::vector<double>(alpha.keys.x().begin(), alpha.keys.x().end()) == std::vector<double>{31, 20, 10, 0});
  CHECK(alpha.total_time == 3.0);
  CHECK(model.animations[1].tracks.empty());
  const auto& step4 = model.animations[2].tracks[4];
  CHECK(std::vector<double>(step4.keys.time().begin(), step4.keys.time().end()) == std::vector<double>{0, 4, 5});
  CHECK(std::vector<double>(step4.keys.x().begin(), step4.keys.x().end()) == std::vector<double>{31, 0, 17});
}

TEST_CASE("BMA0 pose: four colours and alpha per material at an integer frame", "[nitro][nsbma][pose]") {
  const auto bytes = write_bma0(fixture());
  const Pose pose = test::pose_ok(&bma0_pose, bytes, 1, "col_a");
  CHECK(pose.rows_name == "materials");
  CHECK(pose.columns == std::vector<std::string>{"material", "diffuse", "ambient", "specular", "emission", "alpha"});
  CHECK(pose.vector_sizes == std::vector<std::size_t>{0, 3, 3, 3, 3, 0});
  REQUIRE(pose.rows.size() == 2);
  CHECK(std::get<std::string>(pose.rows[0][0]) == "mat_rgb");
  CHECK(test::vector_cell(pose, 0, 1) == std::vector<double>{15, 15, 1});
  CHECK(test::vector_cell(pose, 0, 2) == std::vector<double>{31, 31, 31});
  CHECK(test::vector_cell(pose, 0, 3) == std::vector<double>{4, 5, 6});
  CHECK(std::get<std::int64_t>(pose.rows[0][5]) == 31);
  CHECK(test::vector_cell(pose, 1, 2) == std::vector<double>{8, 8, 8});
  CHECK(std::get<std::int64_t>(pose.rows[1][5]) == 20);
  const Pose step4 = test::pose_ok(&bma0_pose, bytes, 3, "col_b");
  CHECK(test::vector_cell(step4, 0, 4) == std::vector<double>{1, 2, 7});
  CHECK(std::get<std::int64_t>(step4.rows[0][5]) == 7);
}

TEST_CASE("nsbma is registered and detected by its magic", "[nitro][nsbma]") {
  const auto bytes = write_bma0(fixture());
  const FormatModule* format = detect_format(bytes, bytes.size());
  REQUIRE(format != nullptr);
  CHECK(format->id == "nsbma");
  CHECK(format->pose != nullptr);
}
