// KH2 evaluation (kh2-mset.md "Evaluating a motion"): the game's rules on small built motions, and
// on every real motion the two facts the note states as checks.
#include <catch2/catch.hpp>
#include <cmath>

#include "formats/kh2/kh2_evaluate.h"

using namespace animdex;
using namespace animdex::kh2;

namespace {

// One curve on bone 0 with keys at key times 0, 10, 20 holding 1, 3, 2, all of `type`, tangents 0.5.
InterpolatedMotion three_keys(Interpolation type, int pre = 0, int post = 0) {
  InterpolatedMotion body;
  body.bone_count = 1;
  body.total_bone_count = 1;
  body.key_times = {0, 10, 20};
  body.values = {1, 3, 2};
  body.tangents = {0.5F};
  for (std::uint16_t k = 0; k < 3; ++k) body.keys.push_back({type, k, static_cast<std::int16_t>(k), 0, 0});
  body.forward_curves.push_back({0, static_cast<std::uint8_t>(3 | (pre << 4) | (post << 6)), 3, 0});
  body.range = {0, 20, 60, 0};
  return body;
}

double at(const InterpolatedMotion& body, float key_time) { return evaluate_curve(body, body.forward_curves[0], key_time); }

}  // namespace

TEST_CASE("KH2 curves: the left key's type decides the segment", "[kh2][evaluate]") {
  CHECK(at(three_keys(Interpolation::constant), 5) == 1.0);
  CHECK(at(three_keys(Interpolation::linear), 5) == Approx(2.0));
  CHECK(at(three_keys(Interpolation::linear), 15) == Approx(2.5));
  CHECK(at(three_keys(Interpolation::unknown), 5) == 0.0);  // type 3: the game returns 0
  // Hermite at the midpoint: (v0 + v1)/2 + D (m0 - m1)/8 with D = 10 and both tangents 0.5.
  CHECK(at(three_keys(Interpolation::hermite), 5) == Approx(2.0));
  auto body = three_keys(Interpolation::hermite);
  body.tangents = {0.5F, -0.25F};
  body.keys[1].in_tangent_index = 1;  // B.in is the second key's in tangent, A.out the first key's out
  CHECK(at(body, 5) == Approx(0.5 * 1 + 0.5 * 3 + 10 * (0.125 * 0.5 - 0.125 * -0.25)));
  for (const float key : {0.0F, 10.0F, 20.0F})  // every key at its own time gives its value
    CHECK(at(three_keys(Interpolation::hermite), key) == body.values[static_cast<std::size_t>(key / 10)]);
}

TEST_CASE("KH2 curves: pre and post modes 0 to 3 with the inclusive boundary", "[kh2][evaluate]") {
  auto hold = three_keys(Interpolation::linear, 0, 0);
  hold.key_times = {5, 10, 20};
  CHECK(at(hold, 0) == 1.0);
  CHECK(at(hold, 30) == 2.0);
  auto slope = hold;
  slope.forward_curves[0] = {0, static_cast<std::uint8_t>(3 | (1 << 4) | (1 << 6)), 3, 0};
  CHECK(at(slope, 1) == Approx(1 - 4 * 0.5));   // value(F) - (t_F - t) x tangent[F.in]
  CHECK(at(slope, 26) == Approx(2 + 6 * 0.5));  // value(L) + (t - t_L) x tangent[L.out]
  CHECK(at(slope, 5) == 1.0);                   // at the boundary: the key's value
  auto repeat = hold;
  repeat.forward_curves[0] = {0, static_cast<std::uint8_t>(3 | (2 << 4) | (2 << 6)), 3, 0};
  CHECK(at(repeat, 25 + 15) == Approx(at(repeat, 25)));  // period 15: t_L - t_F
  CHECK(at(repeat, 27) == Approx(at(repeat, 12)));
  CHECK(at(repeat, 2) == Approx(at(repeat, 17)));
  auto zero = hold;
  zero.forward_curves[0] = {0, static_cast<std::uint8_t>(3 | (3 << 4) | (3 << 6)), 3, 0};
  CHECK(at(zero, 5) == 0.0);  // inclusive: at t_F itself mode 3 gives 0
  CHECK(at(zero, 20) == 0.0);
  CHECK(at(zero, 12) == Approx(2.8));
}

TEST_CASE("KH2 joints: bind pose, InitialPose, curves, helper records and flags", "[kh2][evaluate]") {
  auto body = three_keys(Interpolation::linear);
  body.bone_count = 2;
  body.total_bone_count = 3;
  body.initial_poses = {{0, 6, 4.5F}, {1, 0, 2.0F}, {0, 3, 9.0F}};  // bone 0 Rx is also a curve: the curve wins
  body.helper_channels = {{1, 1, 1, 0, 0.5F, 0, 7, 8, 9}};
  body.inverse_curves.push_back({0, 7, 3, 0});  // helper 0, translate y
  body.joints = {{1, 2}};
  body.constraint_targets = {2};
  const auto joints = evaluate_joints(body, 10);
  REQUIRE(joints.size() == 3);
  CHECK(joints[0].values[3] == 3.0);
  CHECK(joints[0].sources[3] == ChannelSource::curve);
  CHECK(joints[0].values[6] == 4.5);
  CHECK(joints[0].sources[6] == ChannelSource::initial_pose);
  CHECK(std::isnan(joints[0].values[0]));
  CHECK(joints[0].sources[0] == ChannelSource::bind_pose);
  CHECK(joints[1].values[0] == 2.0);
  CHECK(joints[1].changed_later == "ik");
  CHECK(joints[2].is_helper);
  CHECK(joints[2].values[7] == 3.0);
  CHECK(joints[2].sources[7] == ChannelSource::curve);
  CHECK(joints[2].values[6] == 7.0);
  CHECK(joints[2].sources[6] == ChannelSource::helper_record);
  CHECK(joints[2].changed_later == "constraint");
}

TEST_CASE("KH2 raw motions: frame choice and the model-space decomposition", "[kh2][evaluate]") {
  RawMotion raw;
  raw.bone_count = 1;
  raw.total_frame_count = 3;
  raw.range.fps = 30;
  raw.matrices.resize(3);
  CHECK(raw_frame_at(raw, 0) == 0);
  CHECK(raw_frame_at(raw, 3.9F) == 1);  // key time 3.9 = LFR 1.95: floor
  CHECK(raw_frame_at(raw, 100) == 2);   // clamped to the stored frames
  // A 90-degree turn about Z, scaled by 2, at (1, 2, 3): rows are the basis axes.
  const std::array<float, 16> turn{0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1};
  const auto parts = decompose_euler(turn);
  CHECK(parts[0] == Approx(2));
  CHECK(parts[3] == Approx(0).margin(1e-12));
  CHECK(parts[4] == Approx(0).margin(1e-12));
  CHECK(parts[5] == Approx(M_PI / 2));
  CHECK(parts[6] == 1.0);
  CHECK(parts[8] == 3.0);
}
