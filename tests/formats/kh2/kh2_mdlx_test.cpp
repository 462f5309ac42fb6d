// KH2 models (.mdlx): the skeleton reader against written files, each validation rule of
// kh2-mdlx.md as an error at its offset, and the 12 real models of ../shared/corpus/real/kh2-mdlx.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <numbers>

#include "formats/kh2/kh2_format.h"
#include "formats/kh2/kh2_mdlx.h"
#include "formats/kh2/kh2_mdlx_writer.h"
#include "formats/registry.h"
#include "model/validate.h"
#include "support/corrupt_input.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::kh2;
using test::Bytes;

namespace {

ModelSkeleton must_parse(const Bytes& bytes) {
  auto parsed = parse_mdlx_skeleton(bytes);
  if (!parsed.ok()) FAIL(parsed.error().message());
  return parsed.value();
}

std::size_t bone_at(int bone) { return kWrittenBoneTable + kBoneRecordSize * static_cast<std::size_t>(bone); }

}  // namespace

TEST_CASE("a written KH2 model reads back bone for bone", "[kh2][mdlx]") {
  auto bones = chain_skeleton(4, 0.5F);
  bones[2].flags = 3;
  bones[2].scale = {1.0F, 2.0F, 0.5F};
  bones[2].scale_w = 7.25F;
  bones[3].rotation = {0.1F, -0.2F, 1.35F};
  const Bytes bytes = write_mdlx(bones);
  REQUIRE(detect_format(bytes, bytes.size()) != nullptr);
  CHECK(detect_format(bytes, bytes.size())->id == "kh2_mdlx");
  const auto skeleton = must_parse(bytes);
  CHECK(skeleton.entry_name == "p_ex");
  CHECK(skeleton.model_type == 3);
  CHECK(skeleton.header_offset == kWrittenModelHeader);
  CHECK(skeleton.bone_table_offset == kWrittenBoneTable);
  REQUIRE(skeleton.bones.size() == 4);
  CHECK(skeleton.bones[0].parent == -1);
  CHECK(skeleton.bones[3].parent == 2);
  CHECK(skeleton.bones[2].flags == 3);
  CHECK(skeleton.bones[2].scale == std::array<float, 3>{1.0F, 2.0F, 0.5F});
  CHECK(skeleton.bones[2].scale_w == 7.25F);
  CHECK(skeleton.bones[3].rotation == std::array<float, 3>{0.1F, -0.2F, 1.35F});
  CHECK(skeleton.bones[1].translation == std::array<float, 3>{10.0F, 0.0F, 0.0F});
  CHECK(skeleton.warnings.empty());
  // The hash is the bone table's: the same bones in another file have the same hash, one changed bone not.
  CHECK(must_parse(write_mdlx(bones)).skeleton_hash == skeleton.skeleton_hash);
  bones[3].translation[1] = 1.0F;
  CHECK(must_parse(write_mdlx(bones)).skeleton_hash != skeleton.skeleton_hash);
}

TEST_CASE("the model format indexes its skeleton as kh2_models and model_nodes rows", "[kh2][mdlx]") {
  auto bones = chain_skeleton(3, 0.0F);
  bones[1].rotation = {0.0F, 4.71239F, 4.71239F};
  const Bytes bytes = write_mdlx(bones);
  const auto* format = find_format("kh2_mdlx");
  REQUIRE(format != nullptr);
  const auto parsed = format->parse(bytes);
  REQUIRE(parsed.ok());
  CHECK_FALSE(model::validate(parsed.value()).has_value());
  std::map<std::string, int> tables;
  for (const auto& row : parsed.value().format_rows) ++tables[std::string(row.table)];
  CHECK(tables["kh2_models"] == 1);
  CHECK(tables["model_nodes"] == 3);
  CHECK(tables["mset_slots"] == 1);  // the BAR's entry listing, as any BAR's
  CHECK(format->object_from_file_name("P_EX100.mdlx") == std::optional<std::string_view>("P_EX100"));
}

TEST_CASE("Euler XYZ bind rotations become q = qz * qy * qx", "[kh2][mdlx]") {
  constexpr float kQuarter = std::numbers::pi_v<float> / 2;
  const double h = std::sqrt(0.5);
  const auto about_x = quaternion_from_euler_xyz({kQuarter, 0, 0});
  CHECK(about_x[0] == Approx(h));
  CHECK(about_x[3] == Approx(h));
  // X a quarter turn, then Y a quarter turn: qy * qx = (0.5, 0.5, -0.5, 0.5).
  const auto xy = quaternion_from_euler_xyz({kQuarter, kQuarter, 0});
  CHECK(xy[0] == Approx(0.5));
  CHECK(xy[1] == Approx(0.5));
  CHECK(xy[2] == Approx(-0.5));
  CHECK(xy[3] == Approx(0.5));
}

TEST_CASE("corrupt KH2 models: each rule an error at the field's offset", "[kh2][mdlx][corrupt]") {
  const Bytes good = write_mdlx(chain_skeleton(3));
  REQUIRE(parse_mdlx_skeleton(good).ok());
  SECTION("a parent that is not an earlier bone (a loop could close)") {
    Bytes b = good;
    test::put(b, bone_at(1) + 4, 2, 4, LE);
    test::expect_parse_error(parse_mdlx_skeleton(b), "a parent before bone 1 (-1 or 0..0), found 2", bone_at(1) + 4);
    test::put(b, bone_at(1) + 4, 1, 4, LE);  // its own parent
    test::expect_parse_error(parse_mdlx_skeleton(b), "a parent before bone 1", bone_at(1) + 4);
  }
  SECTION("a parent outside the bone table") {
    Bytes b = good;
    test::put(b, bone_at(2) + 4, 0xFFFFFFFE, 4, LE);
    test::expect_parse_error(parse_mdlx_skeleton(b), "a parent of -1 or a bone 0..2, found -2", bone_at(2) + 4);
    test::put(b, bone_at(2) + 4, 3, 4, LE);
    test::expect_parse_error(parse_mdlx_skeleton(b), "found 3", bone_at(2) + 4);
  }
  SECTION("NaN in a bind pose") {
    Bytes b = good;
    test::put_f32(b, bone_at(2) + 0x34, std::numeric_limits<float>::quiet_NaN(), LE);
    test::expect_parse_error(parse_mdlx_skeleton(b), "a finite bone translation", bone_at(2) + 0x34);
    b = good;
    test::put_f32(b, bone_at(0) + 0x24, std::numeric_limits<float>::infinity(), LE);
    test::expect_parse_error(parse_mdlx_skeleton(b), "a finite bone rotation", bone_at(0) + 0x24);
  }
  SECTION("no bones") {
    Bytes b = good;
    test::put(b, kWrittenModelHeader + 0x10, 0, 2, LE);
    test::expect_parse_error(parse_mdlx_skeleton(b), "a bone count of at least 1", kWrittenModelHeader + 0x10);
  }
  SECTION("more bones than the entry holds") {
    Bytes b = good;
    test::put(b, kWrittenModelHeader + 0x10, 4, 2, LE);
    test::expect_parse_error(parse_mdlx_skeleton(b), "a bone table (4 bones of 64 bytes) inside the", kWrittenModelHeader + 0x14);
    b = good;
    test::put(b, kWrittenModelHeader + 0x14, 0x7FFFFFF0, 4, LE);
    test::expect_parse_error(parse_mdlx_skeleton(b), "a bone table (3 bones of 64 bytes) inside the", kWrittenModelHeader + 0x14);
  }
  SECTION("an entry too short for its header") {
    Bytes b = good;
    test::put(b, 0x10 + 12, kModelReservedBytes + 4, 4, LE);  // the entry's size
    test::expect_parse_error(parse_mdlx_skeleton(b), "a model entry of at least 0xB0 bytes", kWrittenModelEntry);
  }
  SECTION("a model that is not a character: listed, no skeleton, a warning") {
    const auto skeleton = must_parse(write_mdlx(chain_skeleton(3), 2));
    CHECK(skeleton.bones.empty());
    CHECK(skeleton.skeleton_hash.empty());
    REQUIRE(skeleton.warnings.size() == 1);
    CHECK(skeleton.warnings[0] == "model type 2 is not a character (3): no skeleton read");
  }
  SECTION("every truncation fails cleanly or parses") {
    for (std::size_t size = 0; size < good.size(); size += 7) {
      CAPTURE(size);
      const Bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size));
      CHECK_FALSE(parse_mdlx_skeleton(cut).ok());
    }
  }
}

TEST_CASE("the real KH2 models: bone counts, identical skeletons, Sora's first bones", "[kh2][mdlx][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared/corpus/real not found: skipping the real KH2 models");
  const auto root = *shared / "corpus/real/kh2-mdlx";
  // SOURCES.md: bone counts per file.
  const std::map<std::string, std::size_t> counts = {
      {"JacobV4260__Keyblade-Colors/obj/P_EX100.mdlx", 228},
      {"JacobV4260__Keyblade-Colors/obj/P_EX100_LAST.mdlx", 228},
      {"JacobV4260__Keyblade-Colors/obj/P_EX100_MAGF.mdlx", 228},
      {"JacobV4260__Keyblade-Colors/obj/W_EX010.mdlx", 12},
      {"KH-ReFined__KH2-MAIN/obj/P_EX100.mdlx", 228},
      {"Tomk1004__KH2FM-Vanilla-Heartless-Texture-Mod/obj/M_EX520.mdlx", 29},
      {"Tomk1004__KH2FM-Vanilla-Heartless-Texture-Mod/obj/M_EX350.mdlx", 82},
      {"Tomk1004__KH2FM-Vanilla-Heartless-Texture-Mod/obj/M_EX130.mdlx", 37},
      {"ProjectNobodyMayCry__SillyBillyMod1/obj/M_EX021.mdlx", 74},
      {"ProjectNobodyMayCry__SillyBillyMod1/obj/F_TT010_SORA.mdlx", 8},
      {"ProjectNobodyMayCry__SillyBillyMod1/obj/H_CM050_TSURU.mdlx", 12},
      {"ProjectNobodyMayCry__SillyBillyMod1/obj/P_EX100.mdlx", 229}};
  std::map<std::string, ModelSkeleton> models;
  for (const auto& [path, count] : counts) {
    CAPTURE(path);
    const Bytes bytes = test::read_bytes(root / path);
    REQUIRE(detect_format(bytes, bytes.size()) != nullptr);
    CHECK(detect_format(bytes, bytes.size())->id == "kh2_mdlx");
    models[path] = must_parse(bytes);
    CHECK(models[path].bones.size() == count);
    CHECK(models[path].model_type == 3);
  }
  const auto hash = [&](const std::string& path) { return models.at(path).skeleton_hash; };
  const std::string sora = hash("JacobV4260__Keyblade-Colors/obj/P_EX100.mdlx");
  CHECK(hash("KH-ReFined__KH2-MAIN/obj/P_EX100.mdlx") == sora);
  CHECK(hash("JacobV4260__Keyblade-Colors/obj/P_EX100_LAST.mdlx") == sora);
  CHECK(hash("JacobV4260__Keyblade-Colors/obj/P_EX100_MAGF.mdlx") == sora);
  CHECK(hash("ProjectNobodyMayCry__SillyBillyMod1/obj/H_CM050_TSURU.mdlx") == hash("JacobV4260__Keyblade-Colors/obj/W_EX010.mdlx"));
  CHECK(models.at("ProjectNobodyMayCry__SillyBillyMod1/obj/P_EX100.mdlx").entry_name == "srko");
  // kh2-mdlx.md: the first 5 bones of P_EX100 (index, parent, S, R, T).
  const auto& bones = models.at("JacobV4260__Keyblade-Colors/obj/P_EX100.mdlx").bones;
  CHECK(bones[0].parent == -1);
  CHECK(bones[0].rotation[1] == Approx(4.71239F));
  CHECK(bones[0].translation[1] == Approx(102.6229F));
  CHECK(bones[1].rotation[0] == Approx(-1.57068F));
  CHECK(bones[1].rotation[1] == Approx(1.62457F));
  CHECK(bones[3].translation[0] == Approx(14.1509F));
  CHECK(bones[4].parent == 3);
  CHECK(bones[4].rotation[0] == Approx(0.70636F));
  CHECK(bones[4].rotation[1] == Approx(-1.31217F));
  CHECK(bones[4].rotation[2] == Approx(-0.93906F));
  CHECK(bones[4].translation[2] == Approx(2.5F));
  // The note says every bind scale is 1; the files store 1 within a float32 step (0.99999994, 1.0000001).
  for (const auto& bone : bones)
    for (const float scale : bone.scale) CHECK(scale == Approx(1.0F).epsilon(1e-6));
}
