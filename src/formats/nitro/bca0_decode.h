#pragma once
// Fixed point to numbers, rotation indices to matrices, and evaluation at an integer frame
// (nsbca.md "Rotations", "Evaluating at integer frame f").
#include <array>
#include <optional>
#include <vector>

#include "core/rotation.h"
#include "formats/nitro/bca0_types.h"
#include "formats/nitro/nitro_file.h"

namespace animdex::nsbca {

using nitro::fx;  // fixed point 1/4096, as every Nitro kind

Matrix3 decode_rot3(const Rot3Entry& entry);
Matrix3 decode_rot5(const Rot5Entry& entry);
// The matrix a rotation index names; identity when the index is outside the tables.
Matrix3 decode_rotation(const JointAnimation& animation, std::uint16_t index);

// The frame each stored sample belongs to: 0, s, 2s, ... up to LAST_INTERP, then every frame after.
std::vector<int> sample_frames(int frame_count, const TrackInfo& info);

// Values at integer frame f (clamped to 0..frame_count-1). Identity axes give 0 (T) or 1 (S).
double evaluate_axis(const AxisChannel& axis, int frame_count, int frame, bool is_scale);
Matrix3 evaluate_rotation(const JointAnimation& animation, const RotationChannel& rotation, int frame);

// A node's local pose at a frame; a channel taken from the model's bind pose (BASE) is empty.
struct NodePose {
  std::optional<std::array<double, 3>> translation;
  std::optional<Matrix3> rotation;
  std::optional<std::array<double, 3>> scale;
};
NodePose evaluate_node(const JointAnimation& animation, const NodeAnimation& node, int frame);

// The state of a T or S group: one word when every axis agrees, else "x=const y=animated z=const".
std::string group_state(const std::array<AxisChannel, 3>& axes);

}  // namespace animdex::nsbca
