#include "formats/kh2/kh2_evaluate.h"

#include <algorithm>
#include <cmath>

namespace animdex::kh2 {

namespace {

struct CurveKeys {
  const InterpolatedMotion& motion;
  const FCurve& curve;
  std::size_t count() const { return curve.key_count; }
  const CurveKey& key(std::size_t i) const { return motion.keys[static_cast<std::size_t>(curve.first_key) + i]; }
  double time(std::size_t i) const { return motion.key_times[key(i).time_index]; }
  double value(std::size_t i) const { return motion.values[static_cast<std::uint16_t>(key(i).value_index)]; }
  // Modes 1 and 2 read tangent indices even on keys that are not hermite; an index outside the
  // table, or a NaN there (legal, as the parser checks only hermite keys' tangents), reads as flat.
  double tangent(std::int16_t index) const {
    const auto at = static_cast<std::uint16_t>(index);
    return at < motion.tangents.size() && std::isfinite(motion.tangents[at]) ? motion.tangents[at] : 0.0;
  }
};

double hermite(double s, double v0, double v1, double m0, double m1, double span) {
  const double s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * v0 + (3 * s2 - 2 * s3) * v1 + span * ((s3 - 2 * s2 + s) * m0 + (s3 - s2) * m1);
}

// Between the first and the last key: the segment whose left key is the last at or before `time`.
double inside(const CurveKeys& keys, double time) {
  std::size_t left = 0;
  for (std::size_t i = 1; i < keys.count() && keys.time(i) <= time; ++i) left = i;
  if (keys.time(left) == time || left + 1 >= keys.count()) return keys.value(left);
  const std::size_t right = left + 1;
  const double t0 = keys.time(left), t1 = keys.time(right), span = t1 - t0;
  switch (keys.key(left).interpolation) {
    case Interpolation::constant: return keys.value(left);
    case Interpolation::linear: return keys.value(left) + (keys.value(right) - keys.value(left)) * (time - t0) / span;
    case Interpolation::hermite:
      return hermite((time - t0) / span, keys.value(left), keys.value(right),
                     keys.tangent(keys.key(left).out_tangent_index), keys.tangent(keys.key(right).in_tangent_index), span);
    case Interpolation::unknown: return 0.0;
  }
  return 0.0;
}

// Mode 2: shift by whole periods into the keys' range, then evaluate inside.
double repeated(const CurveKeys& keys, double time) {
  const double first = keys.time(0), last = keys.time(keys.count() - 1), period = last - first;
  if (time < first) time += std::ceil((first - time) / period) * period;
  if (time > last) time -= std::ceil((time - last) / period) * period;
  return inside(keys, std::clamp(time, first, last));
}

}  // namespace

const char* source_name(ChannelSource source) {
  switch (source) {
    case ChannelSource::bind_pose: return "bind_pose";
    case ChannelSource::initial_pose: return "initial_pose";
    case ChannelSource::helper_record: return "helper_record";
    case ChannelSource::curve: return "curve";
    case ChannelSource::matrix: return "matrix";
  }
  return "bind_pose";
}

float key_time_of_seconds(double seconds) { return static_cast<float>(seconds * 60.0); }

double evaluate_curve(const InterpolatedMotion& motion, const FCurve& curve, float key_time) {
  const CurveKeys keys{motion, curve};
  if (keys.count() == 0) return 0.0;
  const double time = key_time;
  const std::size_t last = keys.count() - 1;
  const double first_time = keys.time(0), last_time = keys.time(last);
  const bool period = last_time > first_time;  // mode 2 with no period would loop forever in the game: mode 0
  if (time <= first_time) {
    switch (curve.pre_cycle()) {
      case 1: return keys.value(0) - (first_time - time) * keys.tangent(keys.key(0).in_tangent_index);
      case 2: return period ? repeated(keys, time) : keys.value(0);
      case 3: return 0.0;
      default: return keys.value(0);
    }
  }
  if (time >= last_time) {
    switch (curve.post_cycle()) {
      case 1: return keys.value(last) + (time - last_time) * keys.tangent(keys.key(last).out_tangent_index);
      case 2: return period ? repeated(keys, time) : keys.value(last);
      case 3: return 0.0;
      default: return keys.value(last);
    }
  }
  return inside(keys, time);
}

std::vector<JointPose> evaluate_joints(const InterpolatedMotion& motion, float key_time) {
  const auto bones = static_cast<std::size_t>(std::max<std::int16_t>(motion.bone_count, 0));
  std::vector<JointPose> joints(bones + motion.helper_channels.size());
  for (auto& joint : joints) joint.values.fill(std::nan(""));
  for (std::size_t h = 0; h < motion.helper_channels.size(); ++h) {
    auto& helper = joints[bones + h];
    helper.is_helper = true;
    for (std::size_t c = 0; c < 9; ++c) helper.values[c] = motion.helper_channels[h][c];
    helper.sources.fill(ChannelSource::helper_record);
  }
  for (const auto& pose : motion.initial_poses)
    if (pose.bone >= 0 && static_cast<std::size_t>(pose.bone) < bones && pose.channel >= 0 && pose.channel < 9) {
      joints[pose.bone].values[pose.channel] = pose.value;
      joints[pose.bone].sources[pose.channel] = ChannelSource::initial_pose;
    }
  const auto apply = [&](const FCurve& curve, std::size_t base, std::size_t count) {
    if (curve.joint < 0 || static_cast<std::size_t>(curve.joint) >= count || curve.channel() > 8) return;
    auto& joint = joints[base + static_cast<std::size_t>(curve.joint)];
    joint.values[curve.channel()] = evaluate_curve(motion, curve, key_time);
    joint.sources[curve.channel()] = ChannelSource::curve;
  };
  for (const auto& curve : motion.forward_curves) apply(curve, 0, bones);
  for (const auto& curve : motion.inverse_curves) apply(curve, bones, motion.helper_channels.size());

  const auto flag = [&](std::int64_t joint, const char* why) {
    if (joint < 0 || static_cast<std::size_t>(joint) >= joints.size()) return;
    auto& text = joints[static_cast<std::size_t>(joint)].changed_later;
    if (text.find(why) != std::string::npos) return;
    text += (text.empty() ? "" : "+") + std::string(why);
  };
  for (const auto& entry : motion.joints)
    if (entry.flags != 0) flag(entry.joint, "ik");
  for (const auto target : motion.constraint_targets) flag(target, "constraint");
  for (const auto target : motion.expression_targets) flag(target, "expression");
  return joints;
}

std::int64_t raw_frame_at(const RawMotion& motion, float key_time) {
  const double frame = std::floor(static_cast<double>(key_time) * motion.range.fps / 60.0);
  const double last = std::max<double>(motion.total_frame_count - 1, 0);
  return static_cast<std::int64_t>(std::clamp(std::isfinite(frame) ? frame : 0.0, 0.0, last));
}

std::array<double, 9> decompose_euler(const std::array<float, 16>& m) {
  std::array<std::array<double, 3>, 3> basis{};
  std::array<double, 3> scale{};
  for (std::size_t k = 0; k < 3; ++k) {
    for (std::size_t i = 0; i < 3; ++i) basis[k][i] = m[4 * k + i];
    scale[k] = std::sqrt(basis[k][0] * basis[k][0] + basis[k][1] * basis[k][1] + basis[k][2] * basis[k][2]);
  }
  const auto& b = basis;
  const double det = b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1]) - b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0]) +
                     b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]);
  if (det < 0) {
    scale[0] = -scale[0];
  }
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t i = 0; i < 3; ++i) basis[k][i] = scale[k] != 0 ? basis[k][i] / scale[k] : (i == k ? 1.0 : 0.0);
  const auto& c0 = basis[0];
  const auto& c1 = basis[1];
  const auto& c2 = basis[2];
  double x = 0, z = 0;
  const double y = std::asin(std::clamp(-c0[2], -1.0, 1.0));
  if (std::abs(std::cos(y)) < 1e-6) {
    z = std::atan2(-c1[0], c1[1]);
  } else {
    x = std::atan2(c1[2], c2[2]);
    z = std::atan2(c0[1], c0[0]);
  }
  return {scale[0], scale[1], scale[2], x, y, z, m[12], m[13], m[14]};
}

}  // namespace animdex::kh2
