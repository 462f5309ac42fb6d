#include "cli/bake_rotations.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

#include "core/rotation.h"
#include "core/transform.h"

namespace animdex {

namespace {

// Euler angles X, Y, Z (radians; M = Rx * Ry * Rz in row vectors) of a rotation matrix's rows.
std::array<double, 3> euler_of_rows(const Matrix3& m) {
  const double y = std::asin(std::clamp(-m[2], -1.0, 1.0));
  if (std::abs(std::cos(y)) < 1e-6) return {0.0, y, std::atan2(-m[3], m[4])};
  return {std::atan2(m[5], m[8]), y, std::atan2(m[1], m[0])};
}

// The quaternion of Euler angles applied X, then Y, then Z: q = qz * qy * qx.
std::array<double, 4> quaternion_of_euler(const std::array<double, 3>& angles) {
  return multiply(axis_rotation(2, angles[2]), multiply(axis_rotation(1, angles[1]), axis_rotation(0, angles[0])));
}

// The positions of `names` among the node's channels, in that order; empty unless all are there.
std::vector<std::size_t> channels_of(const AnimationCurves& curves, const ChannelCurve& node,
                                     const std::vector<std::string>& names) {
  std::vector<std::size_t> at;
  for (const auto& name : names)
    for (std::size_t c = 0; c < curves.channels.size(); ++c)
      if (curves.channels[c].node == node.node && curves.channels[c].node_kind == node.node_kind &&
          curves.channels[c].channel == name)
        at.push_back(c);
  return at.size() == names.size() ? at : std::vector<std::size_t>{};
}

ChannelCurve made_channel(const ChannelCurve& like, std::string name) {
  ChannelCurve channel;
  channel.node = like.node;
  channel.node_kind = like.node_kind;
  channel.channel = std::move(name);
  channel.sample_times = like.sample_times;
  return channel;
}

}  // namespace

std::optional<RotationForm> parse_rotation_form(std::string_view name) {
  if (name == "native") return RotationForm::native;
  if (name == "quaternion") return RotationForm::quaternion;
  if (name == "euler") return RotationForm::euler;
  return std::nullopt;
}

std::vector<std::string> convert_rotations(AnimationCurves& curves, RotationForm form) {
  if (form == RotationForm::native) return {};
  if (curves.rotations == RotationChannels::other)
    throw std::invalid_argument("this format's rotation channels are not a rotation on their own (GNT: a direction "
                                "and a twist; LightWave: its own channels): --rotations native only");
  const bool matrix = curves.rotations == RotationChannels::matrix_rows;
  if (!matrix && form == RotationForm::euler) return {};  // KH2 keys Euler angles already
  const std::vector<std::string> names =
      matrix ? std::vector<std::string>{"R.m00", "R.m01", "R.m02", "R.m10", "R.m11", "R.m12", "R.m20", "R.m21", "R.m22"}
             : std::vector<std::string>{"R.x", "R.y", "R.z"};
  std::vector<std::string> notes;
  std::vector<ChannelCurve> out;
  std::vector<bool> used(curves.channels.size(), false);
  for (std::size_t c = 0; c < curves.channels.size(); ++c) {
    if (used[c]) continue;
    const auto& channel = curves.channels[c];
    const bool rotation = channel.channel.starts_with("R.");
    const auto group = rotation ? channels_of(curves, channel, names) : std::vector<std::size_t>{};
    if (group.empty()) {
      if (rotation && channel.node && !matrix)
        notes.push_back(fmt::format("{} {} keeps {}: the file keys only part of its rotation (the rest is the "
                                    "model's bind pose)", channel.node_kind, *channel.node, channel.channel));
      out.push_back(channel);
      continue;
    }
    for (const auto g : group) used[g] = true;
    const std::vector<std::string> made_names = form == RotationForm::quaternion
                                                    ? std::vector<std::string>{"R.qx", "R.qy", "R.qz", "R.qw"}
                                                    : std::vector<std::string>{"R.ex", "R.ey", "R.ez"};
    std::vector<ChannelCurve> made;
    for (const auto& name : made_names) made.push_back(made_channel(channel, name));
    const std::size_t samples = channel.sample_values.size();
    for (std::size_t i = 0; i < samples; ++i) {
      std::vector<double> values;
      for (const auto g : group) values.push_back(i < curves.channels[g].sample_values.size() ? curves.channels[g].sample_values[i] : 0.0);
      std::array<double, 3> euler{};
      std::array<double, 4> quaternion{};
      if (matrix) {
        Matrix3 rows{};
        std::copy(values.begin(), values.end(), rows.begin());
        euler = euler_of_rows(rows);
        // A DS matrix is orthonormal only to its 1/4096 steps: the quaternion is made unit.
        quaternion = normalized(quaternion_from_rows(rows));
      } else {
        euler = {values[0], values[1], values[2]};
        quaternion = quaternion_of_euler(euler);
      }
      for (std::size_t k = 0; k < made.size(); ++k)
        made[k].sample_values.push_back(form == RotationForm::quaternion ? quaternion[k] : euler[k]);
    }
    for (auto& m : made) out.push_back(std::move(m));
  }
  curves.channels = std::move(out);
  return notes;
}

}  // namespace animdex
