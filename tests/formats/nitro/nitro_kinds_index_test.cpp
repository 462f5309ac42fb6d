// BTA0, BTP0 and BMA0 files in the index: tracks named after their materials, decoded keys in
// `keyframes`, the `pattern_names` rows and the `nsbtp-patterns` query over them.
#include <catch2/catch.hpp>

#include "db/database.h"
#include "db/sql_runner.h"
#include "formats/nitro/bma0_builder.h"
#include "formats/nitro/bta0_builder.h"
#include "formats/nitro/btp0_builder.h"
#include "indexer/pipeline.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::nitro;

namespace {

std::vector<std::byte> srt_file() {
  std::array<SrtValue, 5> values = {srt_constant(4096, true, 4), srt_constant(4096, true, 4),
                                    srt_rotation_constant(0, 4096, 4), srt_array({0, 1024, 2048, 3072}, true, 1, 4),
                                    srt_constant(-2048, true, 4)};
  Bta0File file;
  file.animations = {{"water", 4, 0, 0, {{"lambert5", values}}}};
  return write_bta0(file);
}

std::vector<std::byte> pattern_file() {
  Btp0File file;
  TexPatternAnimation animation{"blink", 6, {"eye_open", "eye_half", "eye_shut"}, {"eye_pl"}, {}};
  animation.materials = {pattern_material("eye", 6, {{0, 0, 0}, {2, 1, kKeepPalette}, {3, 2, 0}, {5, 0, 0}}),
                         pattern_material("mouth", 6, {{0, 1, kKeepPalette}})};
  file.animations = {animation};
  return write_btp0(file);
}

std::vector<std::byte> colour_file() {
  std::array<ColorValue, 5> values = {color_constant(rgb555(31, 0, 0), 3), color_constant(0x7FFF, 3),
                                      color_constant(0, 3), color_constant(0, 3), color_array({31, 16, 0}, 1, 3)};
  Bma0File file;
  file.animations = {{"fade", 3, 0, {{"glass", values}}}};
  return write_bma0(file);
}

}  // namespace

TEST_CASE("BTA0, BTP0 and BMA0 files index with material-named tracks, keys and pattern names",
          "[nitro][nsbta][nsbtp][nsbma][end_to_end]") {
  test::TempDir dir;
  const auto root = dir / "dump";
  test::write_bytes(root / "water.nsbta", srt_file());
  test::write_bytes(root / "blink.nsbtp", pattern_file());
  test::write_bytes(root / "fade.nsbma", colour_file());
  IndexOptions index;
  index.roots = {root};
  index.database = dir / "kinds.db";
  const auto summary = run_index(index);
  CHECK(summary.totals.ok == 3);
  auto db = open_read_only(index.database);
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(test::sql_lines(db, "SELECT format, animation_count FROM files ORDER BY format") ==
        std::vector<std::string>{"nsbma|1", "nsbta|1", "nsbtp|1"});
  CHECK(test::sql_lines(db, "SELECT f.format, t.bone_id, t.bone_name, t.channels, t.value_encoding, t.key_count "
                    "FROM bone_tracks t JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id "
                    "WHERE f.format <> 'nsbma' ORDER BY f.format, t.track_index") ==
        std::vector<std::string>{"nsbta||lambert5|scale|fx32|1", "nsbta||lambert5|rotation|sincos16|1",
                                 "nsbta||lambert5|translation|fx16|4", "nsbtp||eye|pattern|pattern|4",
                                 "nsbtp||mouth|pattern|pattern|1"});
  CHECK(test::sql_lines(db, "SELECT k.time, k.x, k.y FROM keyframes k JOIN bone_tracks t ON t.id = k.track_id "
                    "WHERE t.channels = 'translation' ORDER BY k.key_index") ==
        std::vector<std::string>{"0|0|-0.5", "1|0.25|-0.5", "2|0.5|-0.5", "3|0.75|-0.5"});
  CHECK(test::sql_lines(db, "SELECT k.x FROM keyframes k JOIN bone_tracks t ON t.id = k.track_id "
                    "WHERE t.channels = 'alpha' ORDER BY k.key_index") == std::vector<std::string>{"31", "16", "0"});
  CHECK(test::sql_lines(db, "SELECT kind, name_index, name FROM pattern_names ORDER BY kind, name_index") ==
        std::vector<std::string>{"palette|0|eye_pl", "texture|0|eye_open", "texture|1|eye_half",
                                 "texture|2|eye_shut"});

  const auto patterns = test::run_named(db, "nsbtp-patterns", {{"file", "blink"}});
  REQUIRE(patterns.rows.size() == 2);
  std::vector<std::string> eye;
  for (const auto& cell : patterns.rows[0]) eye.push_back(cell_text(cell));
  // dump, file, animation, frame_count, material_index, material, keys, texture_count, textures, palettes
  CHECK(eye == std::vector<std::string>{"default", "blink.nsbtp", "blink", "6", "0", "eye", "4", "3",
                                        "eye_open, eye_half, eye_shut", "eye_pl"});
  CHECK(cell_text(patterns.rows[1][5]) == "mouth");
  CHECK(cell_text(patterns.rows[1][8]) == "eye_half");
  CHECK(cell_text(patterns.rows[1][9]).empty());  // palette 255 only: the palette is kept, no name
  CHECK(test::run_named(db, "nsbtp-patterns", {{"animation", "nope"}}).rows.empty());
}
