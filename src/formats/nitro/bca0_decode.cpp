#include "formats/nitro/bca0_decode.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace animdex::nsbca {

namespace {

constexpr Matrix3 kIdentity = {1, 0, 0, 0, 1, 0, 0, 0, 1};

// Which samples a frame reads (the family's rule, nitro_steps.h), and the weight of the second.
// nsbca.md blends the decoded values (a mean, rotations renormalised), not the raw integers with
// the floor that BTA0 and BMA0 use, so only the indices and weights are shared.
struct SampleBlend {
  std::size_t first = 0, second = 0;
  double weight = 0;  // of `second`
};

SampleBlend blend_for(const TrackInfo& info, int frame, std::size_t count) {
  // A hostile LAST_INTERP must not read past the array (the parser sized it by the frame count).
  const nitro::StepRead read = nitro::step_read(info.steps(), frame, count);
  return {read.first, read.second, (4 - read.weight_first) / 4.0};
}

std::array<double, 3> normalized(std::array<double, 3> v) {
  const double length = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (length > 0)
    for (double& c : v) c /= length;
  return v;
}

}  // namespace

Matrix3 decode_rot3(const Rot3Entry& entry) {
  // One row and one column hold only the pivot (+-1); the other 2x2 is [A B; C D] in reading order.
  const int pivot = entry.info & 0x0F;
  const double one = (entry.info & 0x10) ? -1.0 : 1.0;
  const double a = fx(entry.a), b = fx(entry.b);
  const double c = (entry.info & 0x20) ? -b : b;
  const double d = (entry.info & 0x40) ? -a : a;
  Matrix3 m{};
  const int pivot_row = pivot / 3, pivot_col = pivot % 3;
  m[static_cast<std::size_t>(pivot_row * 3 + pivot_col)] = one;
  const double rest[4] = {a, b, c, d};
  int next = 0;
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col)
      if (row != pivot_row && col != pivot_col) m[static_cast<std::size_t>(row * 3 + col)] = rest[next++];
  return m;
}

Matrix3 decode_rot5(const Rot5Entry& entry) {
  const auto signed13 = [](std::uint16_t value) { return static_cast<std::int16_t>(value) >> 3; };
  const auto& d = entry.d;
  int e = ((d[4] & 7) << 12) | ((d[0] & 7) << 9) | ((d[1] & 7) << 6) | ((d[2] & 7) << 3) | (d[3] & 7);
  e &= 0x1FFF;  // sign-extended from bit 12 (a 15-bit extension gives garbage on real data)
  if (e & 0x1000) e -= 0x2000;
  const std::array<double, 3> row0 = {fx(signed13(d[0])), fx(signed13(d[1])), fx(signed13(d[2]))};
  const std::array<double, 3> row1 = {fx(signed13(d[3])), fx(signed13(d[4])), fx(e)};
  return {row0[0], row0[1], row0[2], row1[0], row1[1], row1[2],
          row0[1] * row1[2] - row0[2] * row1[1], row0[2] * row1[0] - row0[0] * row1[2],
          row0[0] * row1[1] - row0[1] * row1[0]};
}

Matrix3 decode_rotation(const JointAnimation& animation, std::uint16_t index) {
  if (index & 0x8000) {
    const std::size_t entry = index & 0x7FFF;
    return entry < animation.rot3.size() && (animation.rot3[entry].info & 0x0F) <= 8 ? decode_rot3(animation.rot3[entry])
                                                                                      : kIdentity;
  }
  return index < animation.rot5.size() ? decode_rot5(animation.rot5[index]) : kIdentity;
}

std::vector<int> sample_frames(int frame_count, const TrackInfo& info) {
  if (frame_count <= 0) return {};
  return nitro::sample_frames(frame_count, sized_steps(frame_count, info.step()));
}

double evaluate_axis(const AxisChannel& axis, int frame_count, int frame, bool is_scale) {
  switch (axis.source) {
    case Source::constant: return fx(axis.constant);
    case Source::animated: {
      if (axis.samples.empty()) return is_scale ? 1.0 : 0.0;
      frame = std::clamp(frame, 0, std::max(frame_count - 1, 0));
      const auto blend = blend_for(axis.info, frame, axis.samples.size());
      return fx(axis.samples[blend.first]) * (1 - blend.weight) + fx(axis.samples[blend.second]) * blend.weight;
    }
    default: return is_scale ? 1.0 : 0.0;
  }
}

Matrix3 evaluate_rotation(const JointAnimation& animation, const RotationChannel& rotation, int frame) {
  if (rotation.source == Source::constant)
    return decode_rotation(animation, static_cast<std::uint16_t>(rotation.constant_word & 0xFFFF));
  if (rotation.source != Source::animated || rotation.indices.empty()) return kIdentity;
  frame = std::clamp(frame, 0, std::max(animation.frame_count - 1, 0));
  const auto blend = blend_for(rotation.info, frame, rotation.indices.size());
  const Matrix3 a = decode_rotation(animation, rotation.indices[blend.first]);
  if (blend.weight == 0) return a;
  const Matrix3 b = decode_rotation(animation, rotation.indices[blend.second]);
  // Blend rows 0 and 1, renormalise them, and rebuild row 2 as their cross product.
  std::array<double, 3> row0, row1;
  for (std::size_t c = 0; c < 3; ++c) {
    row0[c] = a[c] * (1 - blend.weight) + b[c] * blend.weight;
    row1[c] = a[3 + c] * (1 - blend.weight) + b[3 + c] * blend.weight;
  }
  row0 = normalized(row0);
  row1 = normalized(row1);
  return {row0[0], row0[1], row0[2], row1[0], row1[1], row1[2],
          row0[1] * row1[2] - row0[2] * row1[1], row0[2] * row1[0] - row0[0] * row1[2],
          row0[0] * row1[1] - row0[1] * row1[0]};
}

NodePose evaluate_node(const JointAnimation& animation, const NodeAnimation& node, int frame) {
  NodePose pose;
  if (node.translation[0].source != Source::base) {
    std::array<double, 3> t{};
    for (std::size_t axis = 0; axis < 3; ++axis)
      t[axis] = evaluate_axis(node.translation[axis], animation.frame_count, frame, false);
    pose.translation = t;
  }
  if (node.rotation.source != Source::base) pose.rotation = evaluate_rotation(animation, node.rotation, frame);
  if (node.scale[0].source != Source::base) {
    std::array<double, 3> s{};
    for (std::size_t axis = 0; axis < 3; ++axis)
      s[axis] = evaluate_axis(node.scale[axis], animation.frame_count, frame, true);
    pose.scale = s;
  }
  return pose;
}

std::string group_state(const std::array<AxisChannel, 3>& axes) {
  if (axes[0].source == axes[1].source && axes[1].source == axes[2].source) return source_name(axes[0].source);
  return fmt::format("x={} y={} z={}", source_name(axes[0].source), source_name(axes[1].source),
                     source_name(axes[2].source));
}

}  // namespace animdex::nsbca
