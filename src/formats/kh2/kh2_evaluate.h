#pragma once
// A KH2 motion at any time, as the game samples it (kh2-mset.md "Evaluating a motion"): key times in
// 1/60 s, pre/post modes 0-3 with the inclusive boundary, the left key's type deciding each
// segment, hermite tangents as slopes per key-time unit scaled by the span; InitialPose under the
// curves; inverse curves into the IK-helper records. The joint stage that follows (IK, constraints,
// expressions) is not evaluated: the joints it changes are flagged instead.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/kh2/kh2_motion.h"

namespace animdex::kh2 {

// Where a channel's value came from. `bind_pose`: the model's skeleton, which a motion file cannot
// supply (the value is then NaN).
enum class ChannelSource { bind_pose, initial_pose, helper_record, curve, matrix };
const char* source_name(ChannelSource source);

// One joint's 9 channels (scale x/y/z, rotation x/y/z in radians, translation x/y/z).
struct JointPose {
  bool is_helper = false;
  std::array<double, 9> values{};
  std::array<ChannelSource, 9> sources{};
  std::string changed_later;  // "ik", "constraint", "expression", joined by '+'; empty when none
};

// The game's clock is a float32 count of 1/60 s: seconds * 60, rounded to float32.
float key_time_of_seconds(double seconds);

// One curve's value at a key time.
double evaluate_curve(const InterpolatedMotion& motion, const FCurve& curve, float key_time);

// Every joint (bones 0..BoneCount-1, then the IK helpers) after the curves at `key_time`.
std::vector<JointPose> evaluate_joints(const InterpolatedMotion& motion, float key_time);

// A raw motion: the stored frame floor(key_time * FPS / 60), clamped to the stored frames.
std::int64_t raw_frame_at(const RawMotion& motion, float key_time);

// A model-space matrix's translation, scale and Euler XYZ rotation (radians, R = Rz Ry Rx),
// decomposed as kh2-mset.md "Raw motions" says; the scale's first axis is negated when the basis is
// a reflection.
std::array<double, 9> decompose_euler(const std::array<float, 16>& matrix);

}  // namespace animdex::kh2
