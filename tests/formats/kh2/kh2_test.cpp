// KH2 BAR, Motion and motion-set parsing on files built by the project's writers.
#include <catch2/catch.hpp>
#include <cmath>

#include "support/format_rows.h"
#include "formats/kh2/kh2_format.h"
#include "formats/kh2/kh2_model.h"
#include "formats/kh2/kh2_motion_set.h"
#include "formats/registry.h"
#include "kh2_fixture.h"

using namespace animdex;
using namespace animdex::kh2;

namespace {

template <typename T>
T must(Result<T> result) {
  if (!result.ok()) FAIL(result.error().message());
  return std::move(result).value();
}

std::int64_t resolved(const KH2File& file, std::int64_t motion_id, int state) {
  for (const auto& r : file.resolutions)
    if (!r.parent_slot && r.motion_id == motion_id && r.state == state) return r.resolved_slot;
  FAIL("no resolution row for motion " << motion_id << " state " << state);
  return -2;
}

}  // namespace

TEST_CASE("fallback vectors of OpenKh MotionSetTests", "[kh2][resolution]") {
  // Groups of four: ADAD, ADAA, ADAA, DDAD, DDAD, DDDD (kh2-mset.md "Slot mapping").
  const auto bytes = test::motion_set("ADAD" "ADAA" "ADAA" "DDAD" "DDAD" "DDDD", 1);
  const KH2File file = must(parse_motion_set(bytes));
  REQUIRE(file.resolutions.size() == 24);
  // IDLE: battle+weapon 0, field+no weapon 2, field+weapon 2 (and battle, no weapon falls back to 0).
  CHECK(resolved(file, 0, 0) == 0);
  CHECK(resolved(file, 0, 1) == 0);
  CHECK(resolved(file, 0, 2) == 2);
  CHECK(resolved(file, 0, 3) == 2);
  // WALK 4, 6, 7; RUN 8, 10, 11.
  CHECK(resolved(file, 1, 0) == 4);
  CHECK(resolved(file, 1, 2) == 6);
  CHECK(resolved(file, 1, 3) == 7);
  CHECK(resolved(file, 2, 0) == 8);
  CHECK(resolved(file, 2, 2) == 10);
  CHECK(resolved(file, 2, 3) == 11);
  // FALL (4): 18 in all three states.
  CHECK(resolved(file, 4, 0) == 18);
  CHECK(resolved(file, 4, 2) == 18);
  CHECK(resolved(file, 4, 3) == 18);
  // Motion 5: all dummies, -1 in every state.
  for (int state = 0; state < 4; ++state) CHECK(resolved(file, 5, state) == -1);
}

TEST_CASE("with four real slots each state plays its own", "[kh2][resolution]") {
  const KH2File file = must(parse_motion_set(test::motion_set("AAAA", 1)));
  for (int state = 0; state < 4; ++state) CHECK(resolved(file, 0, state) == state);
}

TEST_CASE("resolve_slot: fallback order per state, out-of-range slots are dummies", "[kh2][resolution]") {
  // Only one real slot per group; each state's order decides which it finds first.
  const std::vector<bool> only_state_1 = {false, true, false, false};
  for (int state = 0; state < 4; ++state) CHECK(resolve_slot(only_state_1, SetType::player, 0, state) == 1);
  const std::vector<bool> states_2_and_3 = {false, false, true, true};
  CHECK(resolve_slot(states_2_and_3, SetType::player, 0, 0) == 3);  // 0 -> 1 -> 3
  CHECK(resolve_slot(states_2_and_3, SetType::player, 0, 1) == 2);  // 1 -> 0 -> 2
  const std::vector<bool> states_0_and_1 = {true, true, false, false};
  CHECK(resolve_slot(states_0_and_1, SetType::player, 0, 2) == 1);  // 2 -> 3 -> 1
  CHECK(resolve_slot(states_0_and_1, SetType::player, 0, 3) == 0);  // 3 -> 2 -> 0
  CHECK(resolve_slot(only_state_1, SetType::player, 7, 0) == -1);   // slots 28..31 do not exist
  CHECK(resolve_slot(only_state_1, SetType::raw, 0, 2) == 1);       // Raw maps like Player
  CHECK(resolve_slot(only_state_1, SetType::default_set, 1, 0) == 1);
  CHECK(resolve_slot(only_state_1, SetType::default_set, 0, 0) == -1);
  CHECK(resolve_slot(only_state_1, SetType::default_set, 9, 0) == -1);
}

TEST_CASE("Default sets map slot = motion ID, without states", "[kh2][resolution]") {
  const KH2File file = must(parse_motion_set(test::motion_set("ADA", 0)));
  REQUIRE(file.resolutions.size() == 3);
  CHECK(file.resolutions[1].motion_id == 1);
  CHECK_FALSE(file.resolutions[1].state);
  CHECK(file.resolutions[1].resolved_slot == -1);
  CHECK(file.resolutions[2].resolved_slot == 2);
  CHECK(file.slots[2].motion_id == 2);
  CHECK_FALSE(file.slots[2].state);
}

TEST_CASE("BAR writer and reader: shared data, empty entries, odd sizes, nested BARs", "[kh2][bar]") {
  const std::vector<std::byte> odd = {std::byte{1}, std::byte{2}, std::byte{3}};
  const auto inner = write_bar({{1, 0, "in", odd, -1}});
  const auto bytes = write_bar({{1, 0, "odd", odd, -1},
                                {0, 0, "DUMM", {}, -1},
                                {1, 1, "same", {}, 0},
                                {46, 0, "bar", inner, -1}});
  const Bar bar = must(parse_bar(bytes));
  REQUIRE(bar.entries.size() == 4);
  CHECK(bar.entries[0].offset == 0x50);
  CHECK(bar.entries[0].size == 3);
  CHECK_FALSE(bar.entries[1].has_data());
  CHECK(bar.entries[2].offset == bar.entries[0].offset);
  CHECK(bar.entries[2].duplicate_flag == 1);
  CHECK(bar.entries[3].offset == 0x80);  // a payload that is itself a BAR is aligned to 0x80
  // The nested BAR's offsets are relative to its own start.
  const Bar nested = must(parse_bar(entry_payload(bytes, bar.entries[3])));
  REQUIRE(nested.entries.size() == 1);
  CHECK(nested.entries[0].offset == 0x20);
  CHECK(entry_payload(entry_payload(bytes, bar.entries[3]), nested.entries[0])[2] == std::byte{3});

  const KH2File listing = must(parse_plain_bar(bytes));
  REQUIRE(listing.slots.size() == 4);
  CHECK(listing.slots[2].duplicate_of == 0);
  CHECK(listing.slots[3].data_offset == 0x80);
  CHECK_FALSE(listing.slots[0].set_type);
  CHECK(listing.resolutions.empty());
}

TEST_CASE("detection by content: mset, ANB, other BAR, bare motion", "[kh2][detect]") {
  const auto mset = test::motion_set("ADDA", 1);
  const auto anb = test::anb_of(test::interpolated_motion(4, {1}));
  const auto motion = write_motion(test::interpolated_motion(4, {1}));
  const auto other = write_bar({{47, 0, "vib", {std::byte{'V'}}, -1}});
  CHECK(detect_format(mset, mset.size())->id == "kh2_mset");
  CHECK(detect_format(anb, anb.size())->id == "kh2_anb");
  CHECK(detect_format(other, other.size())->id == "kh2_bar");
  CHECK(detect_format(motion, motion.size())->id == "kh2_motion");
  const std::vector<std::byte> zeros(4096);  // zero-filled padding files are not motions
  CHECK(detect_format(zeros, zeros.size()) == nullptr);
  const auto empty_player_set = write_bar({}, 1);
  CHECK(detect_format(empty_player_set, empty_player_set.size())->id == "kh2_mset");
}

TEST_CASE("interpolated motions in the common model: a track per curve, keys and tangents", "[kh2][model]") {
  const auto bytes = test::anb_of(test::interpolated_motion(32, {5, 7}, 7));
  const auto file = must(find_format("kh2_anb")->parse(bytes));
  REQUIRE(file.animations.size() == 1);
  const auto& animation = file.animations[0];
  const auto headers = test::rows_of(file, "kh2_motions");
  REQUIRE(headers.size() == 1);
  CHECK(headers[0]->animation == 0u);
  CHECK(test::get<std::string>(*headers[0], "kind") == "interpolated");
  CHECK(test::get<std::int64_t>(*headers[0], "bone_count") == 32);
  CHECK(test::get<std::int64_t>(*headers[0], "total_bone_count") == 33);
  CHECK(test::get<double>(*headers[0], "fps") == 30.0);
  REQUIRE(animation.tracks.size() == 2);
  const auto& track = animation.tracks[1];
  CHECK(track.bone_id == 7);
  CHECK(track.channels == "Ty");
  REQUIRE(track.keys.size() == 2);
  CHECK(track.keys[0].time == 0.0);
  CHECK(track.keys[1].time == 10.0);
  CHECK(track.keys[1].x == 7.5);
  CHECK(track.splines[0].shape == 3);  // linear
  CHECK(track.splines[1].shape == 1);  // hermite, with its tangents
  CHECK(track.splines[1].params[0] == 0.25);
  CHECK(track.splines[1].params[1] == -0.25);
  CHECK(track.total_time == 10.0);
}

TEST_CASE("raw motions: matrices decomposed into T, R (quaternion) and S tracks", "[kh2][model]") {
  Motion motion;
  motion.kind = MotionKind::raw;
  RawMotion raw;
  raw.bone_count = 1;
  raw.frame_count = 4;
  raw.total_frame_count = 2;
  raw.range = {0, 2, 30, 0};
  // Frame 0: identity at (1, 2, 3). Frame 1: 90 degrees about z, scale 2, at (0, 0, 5).
  raw.matrices.push_back({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1});
  raw.matrices.push_back({0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 5, 1});
  motion.raw = raw;
  const auto bytes = write_motion(motion);
  const Motion parsed = must(parse_motion(bytes));
  REQUIRE(parsed.raw);
  CHECK(parsed.raw->matrices == raw.matrices);
  CHECK(parsed.warnings.empty());
  const auto animation = motion_to_animation(parsed);
  REQUIRE(animation.tracks.size() == 3);
  const auto& t = animation.tracks[0].keys;
  const auto& r = animation.tracks[1].keys;
  const auto& s = animation.tracks[2].keys;
  CHECK(animation.tracks[1].channels == "R");
  CHECK(t[0].x == 1.0);
  CHECK(t[0].z == 3.0);
  CHECK(*r[0].w == Approx(1.0));
  CHECK(*s[1].x == Approx(2.0));
  CHECK(*s[1].z == Approx(2.0));
  CHECK(*t[1].z == 5.0);
  // Row-vector convention: row 0 = (0, 1, 0) maps x to y, a +90 degree turn about z.
  CHECK(*r[1].z == Approx(std::sqrt(0.5)));
  CHECK(*r[1].w == Approx(std::sqrt(0.5)));
}

TEST_CASE("decompose: a mirrored basis gives a negative x scale and a proper rotation", "[kh2][model]") {
  const auto parts = decompose({-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  CHECK(parts.scale[0] == -1.0);
  CHECK(parts.rotation[3] == Approx(1.0));
  const auto degenerate = decompose({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  CHECK(degenerate.scale[0] == 0.0);
  CHECK(std::isfinite(degenerate.rotation[3]));
}

TEST_CASE("motion sets in the common model: slots, shared data and names", "[kh2][model]") {
  auto anb = test::anb_of(test::interpolated_motion(8, {3}));
  const auto bytes = write_bar({{kTypeAnb, 0, "A000", anb, -1},
                                {kTypeAnb, 1, "DUMM", {}, -1},
                                {kTypeAnb, 0, "A002", {}, 0},
                                {kTypeAnb, 1, "DUMM", {}, -1},
                                {kTypeAnb, 0, "A004", anb, -1}},
                               1);
  const auto file = must(find_format("kh2_mset")->parse(bytes));
  REQUIRE(file.animations.size() == 2);  // slot 2 shares slot 0's data; slot 4 is a copy at its own offset
  CHECK(file.animations[0].slot == 0);
  CHECK(file.animations[1].slot == 4);
  CHECK(file.animations[1].motion_id == 1);
  const auto slots = test::rows_of(file, "mset_slots");
  REQUIRE(slots.size() == 5);
  CHECK(test::get<std::int64_t>(*slots[2], "duplicate_of") == 0);
  CHECK(test::get<model::AnimationRef>(*slots[2], "animation_id").animation == 0);
  CHECK(test::get<std::int64_t>(*slots[3], "is_dummy") == 1);
  CHECK(test::get<std::int64_t>(*slots[3], "motion_id") == 0);
  CHECK(test::get<model::MotionNameOf>(*slots[3], "motion_name").motion_id == 0);
  CHECK(test::get<std::int64_t>(*slots[3], "state") == 3);
  CHECK(test::get<std::int64_t>(*slots[4], "state") == 0);
  CHECK(test::rows_of(file, "mset_resolution").size() == 8);
}

TEST_CASE("a raw motion with bones but no stored frames has no tracks", "[kh2][model]") {
  Motion motion;
  motion.kind = MotionKind::raw;
  RawMotion raw;
  raw.bone_count = 1'000'000'000;  // a fuzzer's header: no matrices follow, so nothing to allocate
  raw.total_frame_count = 0;
  raw.range.fps = 30;
  motion.raw = raw;
  const auto parsed = parse_motion(write_motion(motion));
  REQUIRE(parsed.ok());
  const auto file = to_model(parsed.value());
  CHECK(test::get<std::int64_t>(*test::rows_of(file, "kh2_motions").at(0), "bone_count") == 1'000'000'000);
  CHECK(file.animations.at(0).tracks.empty());
}

TEST_CASE("a motion's curves are the same from a file's arena as from the heap", "[kh2]") {
  const Motion parsed = must(parse_motion(write_motion(test::interpolated_motion(4, {0, 1, 3}))));
  const auto from_heap = motion_to_animation(parsed);
  auto arena = std::make_shared<model::ColumnArena>(std::pmr::new_delete_resource());
  const auto from_arena = motion_to_animation(parsed, arena);
  arena.reset();  // the tracks keep it
  REQUIRE(from_heap.tracks.size() == 3);
  REQUIRE(from_arena.tracks.size() == from_heap.tracks.size());
  for (std::size_t t = 0; t < from_heap.tracks.size(); ++t) {
    CHECK(from_arena.tracks[t].keys == from_heap.tracks[t].keys);
    CHECK(from_arena.tracks[t].splines == from_heap.tracks[t].splines);
  }
}
