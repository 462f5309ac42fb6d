// The real KH2 files in ../shared/corpus/real/kh2-mset, against SOURCES.md and kh2-mset.md.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_capabilities.h"
#include "formats/kh2/kh2_format.h"
#include "formats/kh2/kh2_motion.h"
#include "formats/kh2/kh2_motion_set.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::kh2;

namespace {

std::optional<std::filesystem::path> kh2_dir() {
  const auto shared = test::shared_dir();
  if (!shared) return std::nullopt;
  return *shared / "corpus/real/kh2-mset";
}

#define REQUIRE_KH2_DIR(dir) \
  const auto dir = kh2_dir();  \
  ANIMDEX_SKIP_UNLESS(dir, "../shared/corpus/real not found: skipping the real KH2 files")

template <typename T>
T must(Result<T> result, const std::string& what) {
  INFO(what);
  if (!result.ok()) FAIL(result.error().message());
  return std::move(result).value();
}

Motion load_motion(const std::filesystem::path& path) { return must(parse_motion(test::read_bytes(path)), path); }
KH2File load_set(const std::filesystem::path& path) { return must(parse_motion_set(test::read_bytes(path)), path); }
KH2File load_anb(const std::filesystem::path& path) { return must(parse_anb(test::read_bytes(path)), path); }

std::size_t top_level(const KH2File& file) {
  std::size_t count = 0;
  for (const auto& slot : file.slots) count += !slot.parent_slot;
  return count;
}

}  // namespace

TEST_CASE("bar_test.bar: OpenKh BarTests values and a byte-identical rewrite", "[kh2][real]") {
  REQUIRE_KH2_DIR(dir);
  const auto bytes = test::read_bytes(*dir / "OpenKH__OpenKh/OpenKh.Tests/kh2/res/bar_test.bar");
  const Bar bar = must(parse_bar(bytes), "bar_test.bar");
  REQUIRE(bar.entries.size() == 7);
  const std::vector<std::string> names = {"s_da", "m_da", "l_da", "thru", "tack", "blow", "game"};
  const std::vector<std::int32_t> sizes = {40, 40, 48, 40, 56, 64, 56};
  const std::vector<std::int32_t> offsets = {0x80, 0xA8, 0xD0, 0x100, 0x128, 0x160, 0x1A0};
  std::vector<BarWriteEntry> rewrite;
  for (std::size_t i = 0; i < 7; ++i) {
    const auto& entry = bar.entries[i];
    CHECK(entry.name == names[i]);
    CHECK(entry.size == sizes[i]);
    CHECK(entry.offset == offsets[i]);
    CHECK(entry.type == 47);
    CHECK(entry_type_name(entry.type) == "Vibration");
    CHECK(entry.duplicate_flag == 0);
    const auto payload = entry_payload(bytes, entry);
    CHECK(static_cast<int>(payload[0]) == 86);  // 'V' of "VIBD"
    rewrite.push_back({entry.type, entry.duplicate_flag, entry.name, {payload.begin(), payload.end()}, -1});
  }
  CHECK(write_bar(rewrite, bar.set_type_field) == bytes);
  CHECK(classify_bar(bytes, bytes.size()) == BarKind::other);
}

TEST_CASE("raw.motion: raw, 30 fps, 3 bones, 4 stored frames", "[kh2][real]") {
  REQUIRE_KH2_DIR(dir);
  const Motion motion = load_motion(*dir / "OpenKH__OpenKh/OpenKh.Tests/kh2/res/raw.motion");
  REQUIRE(motion.raw);
  CHECK_FALSE(motion.interpolated);
  CHECK(motion.subtype == 1);
  CHECK(motion.extra_offset == 1120);
  CHECK(motion.raw->bone_count == 3);
  CHECK(motion.raw->frame_count == 4);
  CHECK(motion.raw->total_frame_count == 4);
  CHECK(motion.raw->anim_matrix_offset == 0x60);
  CHECK(motion.raw->pos_matrix_offset == 0x360);
  CHECK(motion.raw->matrices.size() == 12);
  CHECK(motion.raw->extra_matrix_count == 4);  // the note: 4 (= TotalFrameCount), not BoneCount
  CHECK(motion.raw->range.fps == 30.0f);
  CHECK(motion.raw->range.frame_start == 2.0f);
  CHECK(motion.raw->range.frame_end == 4.0f);
  CHECK(motion.warnings.empty());
}

TEST_CASE("interpolated.motion: the note's table counts", "[kh2][real]") {
  REQUIRE_KH2_DIR(dir);
  const Motion motion = load_motion(*dir / "OpenKH__OpenKh/OpenKh.Tests/kh2/res/interpolated.motion");
  REQUIRE(motion.interpolated);
  const auto& body = *motion.interpolated;
  CHECK(motion.extra_offset == 39328);
  CHECK(body.bone_count == 228);
  CHECK(body.total_bone_count == 239);
  CHECK(body.frame_count == 300);
  CHECK(body.key_time_count == 143);
  CHECK(body.initial_poses.size() == 475);
  CHECK(body.forward_curves.size() == 194);
  CHECK(body.inverse_curves.size() == 26);
  CHECK(body.keys.size() == 1983);
  CHECK(body.values.size() == 1820);
  CHECK(body.tangents.size() == 2119);
  CHECK(body.constraint_count == 6);
  CHECK(body.expression_count == 0);
  CHECK(body.range.frame_start == 0.0f);
  CHECK(body.range.frame_end == 150.0f);
  CHECK(body.range.fps == 30.0f);
  std::set<int> bones, helpers;
  int forward_keys = 0, inverse_keys = 0;
  bool all_hermite = true;
  for (const auto& curve : body.forward_curves) {
    bones.insert(curve.joint);
    forward_keys += curve.key_count;
  }
  for (const auto& curve : body.inverse_curves) {
    helpers.insert(curve.joint);
    inverse_keys += curve.key_count;
  }
  for (const auto& key : body.keys) all_hermite &= key.interpolation == Interpolation::hermite;
  CHECK(bones.size() == 100);
  CHECK(*bones.begin() == 0);
  CHECK(*bones.rbegin() == 227);
  CHECK(helpers == std::set<int>{3, 4, 5, 8, 9});
  CHECK(forward_keys == 1779);  // curves share keys: 1779 + 241 = 2020 > 1983 table entries
  CHECK(inverse_keys == 241);
  CHECK(all_hermite);
  CHECK(body.key_times.front() == 0.0f);
  CHECK(body.key_times.back() == 300.0f);
}

TEST_CASE("the real ANBs: bones, frame data and curve counts from SOURCES.md", "[kh2][real]") {
  REQUIRE_KH2_DIR(dir);
  struct Expected {
    std::string path;
    int bones, total_bones, frames, key_times, poses, forward, inverse, constraints;
    float start, end, fps, frame_return;
    int subtype;
  };
  const std::vector<Expected> table = {
      {"OpenKH__OpenKh/OpenKh.Tests.Commands/res/animconverter/inputs/test-0000.anb", 2, 2, 10, 2, 1, 1, 0, 0, 0, 10, 60,
       10, 0},
      {"Kite2810__Vanitas-Mod-PC-Port/anm/fm/al/w_ex020/EAL10103A.anb", 12, 12, 1000, 0, 21, 0, 0, 0, 0, 500, 30, 0, 1},
      {"Zurphing__AirSlideBL/A004.anb", 228, 267, 32, 17, 306, 195, 25, 44, 0, 16, 30, 6, 0},
      {"Zurphing__AirSlideBL/A101.anb", 228, 271, 30, 17, 148, 236, 35, 48, 95, 110, 30, 110, 0},
      {"Zurphing__AirSlideBL/C003.anb", 228, 267, 52, 49, 173, 245, 41, 44, 0, 26, 30, 16, 0},
  };
  for (const auto& expected : table) {
    INFO(expected.path);
    const auto bytes = test::read_bytes(*dir / expected.path);
    CHECK(classify_bar(bytes, bytes.size()) == BarKind::anb);
    const KH2File file = load_anb(*dir / expected.path);
    REQUIRE(file.motions.size() == 1);
    const auto& motion = file.motions[0].motion;
    CHECK(motion.subtype == expected.subtype);
    REQUIRE(motion.interpolated);
    const auto& body = *motion.interpolated;
    CHECK(body.bone_count == expected.bones);
    CHECK(body.total_bone_count == expected.total_bones);
    CHECK(body.frame_count == expected.frames);
    CHECK(body.key_time_count == expected.key_times);
    CHECK(body.initial_poses.size() == static_cast<std::size_t>(expected.poses));
    CHECK(body.forward_curves.size() == static_cast<std::size_t>(expected.forward));
    CHECK(body.inverse_curves.size() == static_cast<std::size_t>(expected.inverse));
    CHECK(body.constraint_count == expected.constraints);
    CHECK(body.range.frame_start == expected.start);
    CHECK(body.range.frame_end == expected.end);
    CHECK(body.range.fps == expected.fps);
    CHECK(body.range.frame_return == expected.frame_return);
  }
}

TEST_CASE("test-0000.anb: one curve on bone 1, channel 3, both keys at time 0", "[kh2][real]") {
  REQUIRE_KH2_DIR(dir);
  const KH2File file = load_anb(*dir / "OpenKH__OpenKh/OpenKh.Tests.Commands/res/animconverter/inputs/test-0000.anb");
  const auto& body = *file.motions.at(0).motion.interpolated;
  REQUIRE(body.forward_curves.size() == 1);
  CHECK(body.forward_curves[0].joint == 1);
  CHECK(body.forward_curves[0].channel() == 3);
  CHECK(body.forward_curves[0].key_count == 2);
  CHECK(body.key_times == std::vector<float>{0.0f, 10.0f});
  for (int k = 0; k < 2; ++k) CHECK(body.keys[static_cast<std::size_t>(body.forward_curves[0].first_key + k)].time_index == 0);
}

TEST_CASE("EAL10103A.anb: a key table no curve uses is accepted", "[kh2][real]") {
  REQUIRE_KH2_DIR(dir);
  const KH2File file = load_anb(*dir / "Kite2810__Vanitas-Mod-PC-Port/anm/fm/al/w_ex020/EAL10103A.anb");
  const auto& body = *file.motions.at(0).motion.interpolated;
  CHECK(body.key_time_count == 0);
  CHECK(body.forward_curves.empty());
  CHECK(body.keys.size() == 21);
}

TEST_CASE("real motion sets: entries, set type, dummies, distinct data and nested sets", "[kh2][real]") {
  REQUIRE_KH2_DIR(dir);
  struct Expected {
    std::string path;
    std::size_t entries;
    int set_type;
    std::size_t dummies, distinct, nested_sets;
    std::size_t motions;  // distinct motions, nested ones included
  };
  // entries / type / size-0 / distinct (offset,size) from SOURCES.md's KH2 table; motions = distinct
  // ANBs with a motion, nested sets counted (SOURCES.md "Corrections").
  const std::vector<Expected> table = {
      {"Sai3rina__KeybladePack/obj/W_EX010_L.mset", 37, 1, 36, 1, 0, 1},
      {"Sai3rina__KeybladePack/obj/W_EX010_LM.mset", 3, 1, 2, 1, 0, 1},
      {"Sai3rina__KeybladePack/obj/W_EX010_R.mset", 108, 1, 95, 13, 0, 13},
      {"Sai3rina__KeybladePack/obj/W_EX010_RTN.mset", 130, 2, 127, 1, 0, 1},
      {"Sai3rina__KeybladePack/obj/W_EX010_RX_L.mset", 605, 1, 596, 2, 0, 2},
      {"Sai3rina__KeybladePack/obj/W_EX010_TR_LIGHTCYCLE.mset", 0, 1, 0, 0, 0, 0},
      {"Zurphing__BaseLimits/gameplay/W_EX010.mset", 993, 1, 896, 78, 0, 78},
      {"ProjectNobodyMayCry__SillyBillyMod1/obj/H_CM050_TSURU.mset", 252, 0, 251, 1, 0, 1},
      {"ProjectNobodyMayCry__SillyBillyMod1/obj/M_EX021.mset", 204, 0, 175, 1, 0, 1},
      {"ProjectNobodyMayCry__SillyBillyMod1/obj/M_EX130.mset", 211, 0, 182, 20, 0, 20},
      {"ProjectNobodyMayCry__SillyBillyMod1/obj/M_EX350_MEMO.mset", 134, 0, 133, 1, 0, 1},
      {"ProjectNobodyMayCry__SillyBillyMod1/obj/M_EX520.mset", 253, 0, 229, 15, 1, 16},
      {"ProjectNobodyMayCry__SillyBillyMod1/obj/WM_SYMBOL_LM.mset", 162, 0, 159, 2, 0, 2},
      {"Kite2810__Vanitas-Mod-PC-Port/obj/F_EX060.mset", 253, 0, 246, 4, 1, 5},
      {"Kite2810__Vanitas-Mod-PC-Port/obj/F_TT010.mset", 271, 0, 232, 36, 18, 35},
      {"Kite2810__Vanitas-Mod-PC-Port/obj/P_EX100_LAST.mset", 1, 2, 0, 1, 0, 1},
      {"Kite2810__Vanitas-Mod-PC-Port/obj/P_EX100_MAGF.mset", 993, 1, 933, 33, 0, 33},
      {"Zurphing__AirSlideBL/P_EX100.mset", 993, 1, 892, 86, 0, 86},
  };
  for (const auto& expected : table) {
    INFO(expected.path);
    const auto bytes = test::read_bytes(*dir / expected.path);
    CHECK(classify_bar(bytes, bytes.size()) == BarKind::motion_set);
    const KH2File file = load_set(*dir / expected.path);
    CHECK(top_level(file) == expected.entries);
    REQUIRE(file.set_type);
    CHECK(static_cast<int>(*file.set_type) == expected.set_type);
    std::size_t dummies = 0, distinct = 0, nested_sets = 0;
    for (const auto& slot : file.slots) {
      if (slot.parent_slot) continue;
      dummies += slot.is_dummy;
      distinct += !slot.is_dummy && !slot.duplicate_of;
      nested_sets += slot.entry.type == kTypeMotionset;
    }
    CHECK(dummies == expected.dummies);
    CHECK(distinct == expected.distinct);
    CHECK(nested_sets == expected.nested_sets);
    CHECK(file.motions.size() == expected.motions);
  }
}

TEST_CASE("real motion sets: nested motions, the trailing group and raw sets", "[kh2][real]") {
  REQUIRE_KH2_DIR(dir);
  SECTION("nested sets add motions with their own bone counts") {
    const KH2File f_ex060 = load_set(*dir / "Kite2810__Vanitas-Mod-PC-Port/obj/F_EX060.mset");
    std::multiset<int> nested_bones;
    for (const auto& motion : f_ex060.motions)
      if (motion.parent_slot) nested_bones.insert(motion.motion.interpolated->bone_count);
    CHECK(nested_bones == std::multiset<int>{12, 228});
    const KH2File f_tt010 = load_set(*dir / "Kite2810__Vanitas-Mod-PC-Port/obj/F_TT010.mset");
    std::size_t nested = 0, empty_motion_slots = 0;
    for (const auto& motion : f_tt010.motions)
      if (motion.parent_slot) {
        ++nested;
        CHECK(motion.motion.interpolated->bone_count == 53);
      }
    for (const auto& slot : f_tt010.slots)
      if (slot.parent_slot && !slot.is_dummy && !slot.duplicate_of && !slot.motion_index &&
          slot.entry.type == kTypeAnb)
        ++empty_motion_slots;
    CHECK(nested == 16);
    CHECK(empty_motion_slots == 1);  // 259/2; 263/2 shares its data (263 duplicates 259)
  }
  SECTION("W_EX010_RX_L: slot 604 is motion 151 state 0 in a group of one") {
    const KH2File file = load_set(*dir / "Sai3rina__KeybladePack/obj/W_EX010_RX_L.mset");
    std::vector<std::int64_t> real;
    for (const auto& slot : file.slots)
      if (!slot.is_dummy) real.push_back(slot.slot);
    CHECK(real == std::vector<std::int64_t>{0, 2, 4, 6, 8, 10, 24, 26, 604});
    const auto& last = file.slots[604];
    CHECK(last.motion_id == 151);
    CHECK(last.state == 0);
    for (const auto& resolution : file.resolutions)
      if (resolution.motion_id == 151) CHECK(resolution.resolved_slot == 604);
    CHECK(file.resolutions.size() == 152 * 4);
  }
  SECTION("P_EX100_LAST: a Raw set holding one raw motion of 228 bones, 55 stored frames") {
    const KH2File file = load_set(*dir / "Kite2810__Vanitas-Mod-PC-Port/obj/P_EX100_LAST.mset");
    REQUIRE(file.motions.size() == 1);
    const auto& raw = file.motions[0].motion.raw;
    REQUIRE(raw);
    CHECK(raw->bone_count == 228);
    CHECK(raw->frame_count == 108);
    CHECK(raw->total_frame_count == 55);
    CHECK(raw->range.fps == 30.0f);
    CHECK(file.slots[0].state == 0);  // Raw maps like Player (OpenKh), the type stays visible
    CHECK(*file.set_type == SetType::raw);
  }
  SECTION("ANBs that run past their slot's size are kept, with a warning") {
    const KH2File file = load_set(*dir / "Zurphing__AirSlideBL/P_EX100.mset");
    std::size_t overruns = 0;
    for (const auto& warning : file.warnings) overruns += warning.find("past the slot's size") != std::string::npos;
    CHECK(overruns == 6);
  }
}

TEST_CASE("real nested set: a nested slot's number asked alone says how to ask for it", "[kh2][real][pose]") {
  REQUIRE_KH2_DIR(dir);
  const auto bytes = test::read_bytes(*dir / "Kite2810__Vanitas-Mod-PC-Port/obj/F_EX060.mset");
  PoseRequest request;
  request.frame = 0;
  request.slot = "3";  // `animations` lists the nested motion as slot 3; top-level slot 3 is a dummy
  const auto refused = pose_in<parse_motion_set>(bytes, request);
  REQUIRE(std::holds_alternative<CapabilityError>(refused));
  CHECK_THAT(std::get<CapabilityError>(refused).message,
             Catch::StartsWith("slot 3 holds no motion (a dummy); the nested set in slot 252 has a slot 3 with a "
                               "motion: --slot 252/3; slots with motions: "));
  request.slot = "252/3";
  CHECK(std::holds_alternative<Pose>(pose_in<parse_motion_set>(bytes, request)));
}
