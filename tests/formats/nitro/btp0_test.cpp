// BTP0 (texture pattern) files built with the project's writer: round trips over what the real
// files lack (several animations, an animation without materials, palette index 255, NOPLTT), the
// key in effect at every frame, the common model with its `pattern_names` rows, and the pose.
#include <catch2/catch.hpp>

#include "formats/nitro/btp0_builder.h"
#include "formats/nitro/btp0_format.h"
#include "formats/nitro/btp0_parser.h"
#include "formats/nitro/nitro_kinds_support.h"
#include "formats/registry.h"
#include "model/validate.h"
#include "support/format_rows.h"

using namespace animdex;
using namespace animdex::nitro;

namespace {

Btp0File fixture() {
  Btp0File file;
  TexPatternAnimation first{"pat_a", 10, {"tex_a", "tex_b", "tex_c"}, {"pal_a", "pal_b"}, {}};
  first.materials = {pattern_material("mat_one", 10, {{0, 0, 0}, {3, 2, kKeepPalette}, {7, 1, 1}}),
                     pattern_material("mat_two", 10, {{0, 1, kKeepPalette}})};
  TexPatternAnimation empty{"pat_empty", 2, {}, {}, {}};  // a 0-entry material dictionary, no names
  TexPatternAnimation second{"pat_b", 5, {"only_texture_16b"}, {}, {}};  // a name of 16 bytes, no NUL
  second.materials = {pattern_material("mat_b", 5, {{0, 0, kKeepPalette}, {4, 0, kKeepPalette}})};
  second.materials[0].flag = 1;  // NOPLTT
  file.animations = {first, empty, second};
  return file;
}

}  // namespace

TEST_CASE("BTP0 writer and parser round trip: several animations, no materials, palette 255, NOPLTT",
          "[nitro][nsbtp][writer]") {
  const Btp0File original = fixture();
  const auto bytes = write_btp0(original);
  const Btp0File parsed = test::parsed_ok(parse_btp0(bytes));
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.animations.size() == 3);
  CHECK(parsed.animations == original.animations);
  CHECK(parsed.animations[2].textures[0] == "only_texture_16b");
  CHECK(parsed.animations[0].materials[0].ratio == 3 * 4096 / 10);  // numFV / numFrame in fx16
  CHECK(write_btp0(parsed) == bytes);
}

TEST_CASE("BTP0 key in effect: the last key at or before the frame", "[nitro][nsbtp]") {
  const Btp0File file = test::parsed_ok(parse_btp0(write_btp0(fixture())));
  const auto& material = file.animations[0].materials[0];
  const std::vector<std::size_t> expected = {0, 0, 0, 1, 1, 1, 1, 2, 2, 2};
  for (int frame = 0; frame < 10; ++frame) {
    INFO("frame " << frame);
    CHECK(pattern_key_at(material, frame) == expected[static_cast<std::size_t>(frame)]);
  }
  // Before a first key later than frame 0 (a warning at parse), key 0 is in effect.
  PatternMaterial late{"late", 0, 0, {{2, 0, 0}, {5, 1, 0}}};
  CHECK(pattern_key_at(late, 0) == 0);
  CHECK(pattern_key_at(late, 4) == 0);
  CHECK(pattern_key_at(late, 5) == 1);
}

TEST_CASE("BTP0 model: a pattern track per material and the names behind the indexes", "[nitro][nsbtp][model]") {
  const auto model = btp0_to_model(test::parsed_ok(parse_btp0(write_btp0(fixture()))));
  CHECK_FALSE(model::validate(model));
  REQUIRE(model.animations.size() == 3);
  const auto& first = model.animations[0];
  REQUIRE(first.tracks.size() == 2);
  const auto& track = first.tracks[0];
  CHECK_FALSE(track.bone_id);  // materials are not bones
  CHECK(track.node_name == "mat_one");
  CHECK(track.channels == "pattern");
  CHECK(track.value_encoding == "pattern");
  REQUIRE(track.keys.size() == 3);
  CHECK(std::vector<double>(track.keys.time().begin(), track.keys.time().end()) == std::vector<double>{0, 3, 7});
  CHECK(std::vector<std::int64_t>(track.keys.frame().begin(), track.keys.frame().end()) ==
        std::vector<std::int64_t>{0, 3, 7});
  CHECK(std::vector<double>(track.keys.x().begin(), track.keys.x().end()) == std::vector<double>{0, 2, 1});
  CHECK(std::vector<double>(track.keys.y().begin(), track.keys.y().end()) == std::vector<double>{0, 255, 1});
  CHECK(track.total_time == 7.0);
  CHECK(first.tracks[1].node_name == "mat_two");
  CHECK(model.animations[1].tracks.empty());

  const auto rows = test::rows_of(model, "pattern_names");
  REQUIRE(rows.size() == 6);  // pat_a: 3 textures + 2 palettes; pat_b: 1 texture
  CHECK(rows[0]->animation == 0u);
  CHECK(test::get<std::string>(*rows[0], "kind") == "texture");
  CHECK(test::get<std::int64_t>(*rows[2], "name_index") == 2);
  CHECK(test::get<std::string>(*rows[2], "name") == "tex_c");
  CHECK(test::get<std::string>(*rows[4], "kind") == "palette");
  CHECK(test::get<std::string>(*rows[4], "name") == "pal_b");
  CHECK(rows[5]->animation == 2u);
  CHECK(test::get<std::string>(*rows[5], "name") == "only_texture_16b");
}

TEST_CASE("BTP0 pose: key, indexes and names per material, palette 255 has no name", "[nitro][nsbtp][pose]") {
  const auto bytes = write_btp0(fixture());
  const Pose pose = test::pose_ok(&btp0_pose, bytes, 4, "pat_a");
  CHECK(pose.rows_name == "materials");
  CHECK(pose.columns ==
        std::vector<std::string>{"material", "key", "texture_index", "palette_index", "texture", "palette"});
  REQUIRE(pose.rows.size() == 2);
  const auto& one = pose.rows[0];
  CHECK(std::get<std::string>(one[0]) == "mat_one");
  CHECK(std::get<std::int64_t>(one[1]) == 1);
  CHECK(std::get<std::int64_t>(one[2]) == 2);
  CHECK(std::get<std::int64_t>(one[3]) == 255);
  CHECK(std::get<std::string>(one[4]) == "tex_c");
  CHECK(std::holds_alternative<std::monostate>(one[5]));
  CHECK(std::get<std::string>(pose.rows[1][4]) == "tex_b");

  const Pose later = test::pose_ok(&btp0_pose, bytes, 9, "pat_a");
  CHECK(std::get<std::int64_t>(later.rows[0][1]) == 2);
  CHECK(std::get<std::string>(later.rows[0][4]) == "tex_b");
  CHECK(std::get<std::string>(later.rows[0][5]) == "pal_b");
  const Pose other = test::pose_ok(&btp0_pose, bytes, 4, "pat_b");
  CHECK(std::get<std::int64_t>(other.rows[0][1]) == 1);
  CHECK(test::pose_ok(&btp0_pose, bytes, 1, "pat_empty").rows.empty());
}

TEST_CASE("nsbtp is registered and detected by its magic", "[nitro][nsbtp]") {
  const auto bytes = write_btp0(fixture());
  const FormatModule* format = detect_format(bytes, bytes.size());
  REQUIRE(format != nullptr);
  CHECK(format->id == "nsbtp");
  CHECK(format->pose != nullptr);
}

TEST_CASE("a NOPLTT material takes no palette: its index is not checked and the pose names none",
          "[nitro][nsbtp]") {
  Btp0File file;
  TexPatternAnimation animation{"no_palette", 4, {"tex"}, {}, {}};  // numPltt 0
  animation.materials = {pattern_material("mat", 4, {{0, 0, 0}, {2, 0, 3}})};
  animation.materials[0].flag = 1;  // NOPLTT: palette bytes 0 and 3 name nothing
  file.animations = {animation};
  const auto bytes = write_btp0(file);
  REQUIRE(parse_btp0(bytes).ok());
  PoseRequest request;
  request.frame = 2;
  const auto answer = btp0_pose(bytes, request);
  REQUIRE(std::holds_alternative<Pose>(answer));
  const auto& row = std::get<Pose>(answer).rows.at(0);
  CHECK(std::get<std::int64_t>(row[3]) == 3);
  CHECK(std::holds_alternative<std::monostate>(row[5]));
  file.animations[0].materials[0].flag = 0;  // the same keys with a palette: index 0 of 0 palettes
  CHECK_FALSE(parse_btp0(write_btp0(file)).ok());
}
