// The real BTA0, BTP0 and BMA0 members of the 9 NARCs (nitro-models-and-anims.md section 9): all
// parse without a warning, their models validate, the census facts hold, the writer reproduces
// every file byte for byte, and one file per kind poses to values checked by hand against its bytes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "formats/nitro/bma0_builder.h"
#include "formats/nitro/bma0_format.h"
#include "formats/nitro/bta0_builder.h"
#include "formats/nitro/bta0_format.h"
#include "formats/nitro/btp0_builder.h"
#include "formats/nitro/btp0_format.h"
#include "formats/nitro/nitro_kinds_support.h"
#include "formats/nitro/nitro_real_members.h"
#include "formats/registry.h"
#include "model/validate.h"

using namespace animdex;
using namespace animdex::nitro;

namespace {

bool corpus_present() {
  if (test::real_nitro_members()) return true;
  WARN("../shared not found: real BTA0/BTP0/BMA0 member tests skipped");
  return false;
}

struct Checked {
  std::size_t files = 0, lz11 = 0;
};

// Every member of one kind: detected as `format_id`, parsed without a warning, version 1 and one
// animation, a valid model, and written back byte for byte; `visit` sees each parsed file.
template <typename File, typename Visit>
Checked check_members(std::string_view magic, std::string_view format_id,
                      Result<File> (*parse)(std::span<const std::byte>), model::AnimationFile (*to_model)(const File&),
                      std::vector<std::byte> (*write)(const File&), Visit visit) {
  Checked checked;
  for (const auto* member : test::real_members_with_magic(magic)) {
    INFO(member->address);
    const FormatModule* format = detect_format(member->bytes, member->bytes.size());
    REQUIRE(format != nullptr);
    CHECK(format->id == format_id);
    const File file = test::parsed_ok(parse(member->bytes));
    CHECK(file.warnings.empty());
    CHECK(file.version == 1);
    CHECK(file.animations.size() == 1);
    CHECK_FALSE(model::validate(to_model(file)));
    CHECK(write(file) == member->bytes);
    ++checked.files;
    if (member->lz11) ++checked.lz11;
    visit(*member, file);
  }
  return checked;
}

std::span<const std::byte> bytes_at(const std::string& address) {
  const auto* member = test::real_member_at(address);
  REQUIRE(member != nullptr);
  return member->bytes;
}

}  // namespace

TEST_CASE("real BTA0 members: 132 parse, rewrite byte for byte, and match the census", "[nitro][nsbta][real]") {
  if (!corpus_present()) return;
  std::size_t materials = 0, empty = 0, flag_set = 0, lambert5 = 0, fx16_arrays = 0, fx32_arrays = 0;
  std::array<std::size_t, 5> animated{};
  std::set<std::uint32_t> scale_constants;
  int min_frames = 1 << 16, max_frames = 0;
  const Checked checked = check_members(
      "BTA0", "nsbta", &parse_bta0, &bta0_to_model, &write_bta0, [&](const auto& member, const Bta0File& file) {
        for (const auto& animation : file.animations) {
          min_frames = std::min<int>(min_frames, animation.frame_count);
          max_frames = std::max<int>(max_frames, animation.frame_count);
          flag_set += animation.flag;
          CHECK(animation.tex_mtx_mode == 0);
          materials += animation.materials.size();
          empty += animation.materials.empty();
          for (const auto& material : animation.materials) {
            lambert5 += member.archive.ends_with("a/2/4/6") && material.name == "lambert5";
            for (std::size_t part = 0; part < 5; ++part) {
              const SrtValue& value = material.values[part];
              CHECK(value.steps().step() == 1);
              if (value.is_constant()) {
                if (part <= kScaleT) scale_constants.insert(value.constant);
                continue;
              }
              ++animated[part];
              if (part != kRotation) ++(value.fx16() ? fx16_arrays : fx32_arrays);
            }
          }
        }
      });
  CHECK(checked.files == 132);
  CHECK(checked.lz11 == 7);
  CHECK(materials == 295);
  CHECK(empty == 1);
  CHECK(flag_set == 14);
  CHECK(min_frames == 2);
  CHECK(max_frames == 1801);
  CHECK(animated == std::array<std::size_t, 5>{0, 0, 18, 125, 163});  // scale never animated
  CHECK(fx16_arrays == 275);
  CHECK(fx32_arrays == 13);
  CHECK(lambert5 == 11);  // absent from those archives' models: dead tracks
  // Scale constants (fx32): 0.1, 0.5, 1, 2, 4, 32 and 64.
  CHECK(scale_constants == std::set<std::uint32_t>{410, 2048, 4096, 8192, 16384, 131072, 262144});
}

TEST_CASE("real BTP0 members: 106 parse, rewrite byte for byte, and match the census", "[nitro][nsbtp][real]") {
  if (!corpus_present()) return;
  std::size_t tracks = 0, empty = 0, keep_palette = 0, flags = 0, min_keys = 1 << 16, max_keys = 0;
  std::size_t max_textures = 0, max_palettes = 0;
  int min_frames = 1 << 16, max_frames = 0;
  const Checked checked = check_members(
      "BTP0", "nsbtp", &parse_btp0, &btp0_to_model, &write_btp0, [&](const auto&, const Btp0File& file) {
        for (const auto& animation : file.animations) {
          min_frames = std::min<int>(min_frames, animation.frame_count);
          max_frames = std::max<int>(max_frames, animation.frame_count);
          max_textures = std::max(max_textures, animation.textures.size());
          max_palettes = std::max(max_palettes, animation.palettes.size());
          tracks += animation.materials.size();
          empty += animation.materials.empty();
          for (const auto& material : animation.materials) {
            min_keys = std::min(min_keys, material.keys.size());
            max_keys = std::max(max_keys, material.keys.size());
            flags += material.flag != 0;
            CHECK(material.keys.front().frame == 0);
            // The converter's ratioDataFrame: numFV / numFrame in fx16, rounded down.
            CHECK(material.ratio == material.keys.size() * 4096 / animation.frame_count);
            for (const auto& key : material.keys) keep_palette += key.palette == kKeepPalette;
          }
        }
      });
  CHECK(checked.files == 106);
  CHECK(checked.lz11 == 4);
  CHECK(tracks == 180);
  CHECK(empty == 1);
  CHECK(min_keys == 1);
  CHECK(max_keys == 120);
  CHECK(max_textures == 51);
  CHECK(max_palettes == 20);
  CHECK(flags == 0);
  CHECK(keep_palette == 0);
  CHECK(min_frames == 2);
  CHECK(max_frames == 481);
}

TEST_CASE("real BMA0 members: 45 parse, rewrite byte for byte, and match the census", "[nitro][nsbma][real]") {
  if (!corpus_present()) return;
  std::size_t materials = 0, flag_set = 0;
  std::array<std::size_t, 5> animated{};
  int min_frames = 1 << 16, max_frames = 0;
  const Checked checked = check_members(
      "BMA0", "nsbma", &parse_bma0, &bma0_to_model, &write_bma0, [&](const auto&, const Bma0File& file) {
        for (const auto& animation : file.animations) {
          min_frames = std::min<int>(min_frames, animation.frame_count);
          max_frames = std::max<int>(max_frames, animation.frame_count);
          flag_set += animation.flag;
          materials += animation.materials.size();
          for (const auto& material : animation.materials)
            for (std::size_t part = 0; part < 5; ++part)
              if (!material.values[part].is_constant()) {
                ++animated[part];
                CHECK(material.values[part].steps().step() == 1);
              }
        }
      });
  CHECK(checked.files == 45);
  CHECK(checked.lz11 == 7);
  CHECK(materials == 158);
  CHECK(flag_set == 7);
  CHECK(animated == std::array<std::size_t, 5>{5, 3, 0, 0, 157});
  CHECK(min_frames == 15);
  CHECK(max_frames == 1500);
}

TEST_CASE("real BTA0 pose: hiden_effect member 2 (iaigiri) at frames 10 and 44", "[nitro][nsbta][real][pose]") {
  if (!corpus_present()) return;
  const auto bytes = bytes_at("pret__pokeplatinum/res/prebuilt/graphic/hiden_effect.narc/2");
  // Three materials with constant scale 1, translation 0 and a step-1 (sin, cos) array at 0xD4,
  // 0x198, 0x25C; frame 10's words: 0x08390DB9 (sin 3513, cos 2105), 0x0876F26C (-3476, 2166),
  // 0x0B550B4C (2892, 2901).
  const Pose pose = test::pose_ok(&bta0_pose, bytes, 10);
  REQUIRE(pose.rows.size() == 3);
  CHECK(std::get<std::string>(pose.rows[0][0]) == "ha3");
  CHECK(std::get<std::string>(pose.rows[1][0]) == "ha1");
  CHECK(test::vector_cell(pose, 0, 1) == std::vector<double>{1.0, 1.0});
  CHECK(test::vector_cell(pose, 0, 2) == std::vector<double>{3513 / 4096.0, 2105 / 4096.0});
  CHECK(std::get<double>(pose.rows[0][3]) == Approx(59.0698339546));
  CHECK(test::vector_cell(pose, 1, 2) == std::vector<double>{-3476 / 4096.0, 2166 / 4096.0});
  CHECK(std::get<double>(pose.rows[1][3]) == Approx(-58.0717268581));
  CHECK(test::vector_cell(pose, 2, 2) == std::vector<double>{2892 / 4096.0, 2901 / 4096.0});
  CHECK(test::vector_cell(pose, 2, 4) == std::vector<double>{0.0, 0.0});
  // Frame 44, the last: ha1 0xFC66F069 (sin -3991, cos -922), past 90 degrees.
  const Pose last = test::pose_ok(&bta0_pose, bytes, 44);
  CHECK(test::vector_cell(last, 1, 2) == std::vector<double>{-3991 / 4096.0, -922 / 4096.0});
  CHECK(std::get<double>(last.rows[1][3]) == Approx(-103.0082464122));
}

TEST_CASE("real BTP0 pose: HGSS a/2/4/6 member 48 (mg13_wl01) at frames 3 and 14", "[nitro][nsbtp][real][pose]") {
  if (!corpus_present()) return;
  const auto bytes = bytes_at("pret__pokeheartgold/files/a/2/4/6/48");
  // 14 textures mg13_w01.1..7, mg13_w02.1..7 and 14 palettes (the same with _pl); material
  // mg13_w01 keys (f, f, f) for f = 0..6 then (7, 0, 0); mg13_w02 (f, f + 7, f + 7), then (7, 7, 7).
  const Pose pose = test::pose_ok(&btp0_pose, bytes, 3);
  REQUIRE(pose.rows.size() == 2);
  const std::vector<PoseValue> first = {std::string("mg13_w01"), std::int64_t{3}, std::int64_t{3}, std::int64_t{3},
                                        std::string("mg13_w01.4"), std::string("mg13_w01.4_pl")};
  CHECK(pose.rows[0] == first);
  const std::vector<PoseValue> second = {std::string("mg13_w02"), std::int64_t{3}, std::int64_t{10}, std::int64_t{10},
                                         std::string("mg13_w02.4"), std::string("mg13_w02.4_pl")};
  CHECK(pose.rows[1] == second);
  const Pose last = test::pose_ok(&btp0_pose, bytes, 14);
  CHECK(std::get<std::int64_t>(last.rows[0][1]) == 7);
  CHECK(std::get<std::string>(last.rows[0][4]) == "mg13_w01.1");
  CHECK(std::get<std::string>(last.rows[1][4]) == "mg13_w02.1");
}

TEST_CASE("real BMA0 pose: HGSS a/2/4/6 member 24 (mg13_wl01) at frames 6 and 8", "[nitro][nsbma][real][pose]") {
  if (!corpus_present()) return;
  const auto bytes = bytes_at("pret__pokeheartgold/files/a/2/4/6/24");
  // Both materials: diffuse 0x6739 (25, 25, 25), ambient 0x7FFF, specular and emission 0; alpha
  // arrays 1F 1F 1F 1F 1F 1C 15 0E 07 00 00 00 00 00 00 and 1F x8 1B 16 12 0D 09 04 00 00.
  const Pose pose = test::pose_ok(&bma0_pose, bytes, 6);
  REQUIRE(pose.rows.size() == 2);
  CHECK(std::get<std::string>(pose.rows[0][0]) == "mg13_w01");
  CHECK(test::vector_cell(pose, 0, 1) == std::vector<double>{25, 25, 25});
  CHECK(test::vector_cell(pose, 0, 2) == std::vector<double>{31, 31, 31});
  CHECK(test::vector_cell(pose, 0, 3) == std::vector<double>{0, 0, 0});
  CHECK(test::vector_cell(pose, 1, 4) == std::vector<double>{0, 0, 0});
  CHECK(std::get<std::int64_t>(pose.rows[0][5]) == 0x15);
  CHECK(std::get<std::int64_t>(pose.rows[1][5]) == 0x1F);
  const Pose next = test::pose_ok(&bma0_pose, bytes, 8);
  CHECK(std::get<std::int64_t>(next.rows[0][5]) == 0x07);
  CHECK(std::get<std::int64_t>(next.rows[1][5]) == 0x1B);
}
