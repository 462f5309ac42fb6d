#include "formats/nitro/bca0_curves.h"

#include <cmath>
#include <fmt/format.h>

#include "formats/curve_sampling.h"

#include "formats/nitro/bca0_decode.h"
#include "formats/nitro/bca0_parser.h"

namespace animdex::nsbca {

namespace {

constexpr double kDefaultFps = 60.0;

// Keys at the stored frames; samples at the request's rate, each the integer frame it falls in (the
// format has values at integer frames only).
ChannelCurve channel_of(std::size_t node, const std::string& name, const std::vector<int>& stored,
                        const std::vector<double>& samples, double fps, const auto& value_at) {
  ChannelCurve channel;
  channel.node = static_cast<std::int64_t>(node);
  channel.node_kind = "node";
  channel.channel = name;
  for (const int frame : stored) {
    channel.key_times.push_back(frame / fps);
    channel.key_values.push_back(value_at(frame));
  }
  channel.sample_times = samples;
  for (const double seconds : samples) channel.sample_values.push_back(value_at(static_cast<int>(std::floor(seconds * fps + 1e-9))));
  return channel;
}

// The animated axes of a node's translation or scale group, as channels "T.x" .. "S.z".
void add_axes(const JointAnimation& animation, std::size_t index, const std::array<AxisChannel, 3>& axes, char group,
              const std::vector<double>& samples, double fps, AnimationCurves& curves) {
  static constexpr char kAxes[] = "xyz";
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const auto& channel = axes[axis];
    if (channel.source != Source::animated) continue;
    curves.channels.push_back(channel_of(index, fmt::format("{}.{}", group, kAxes[axis]),
                                         sample_frames(animation.frame_count, channel.info), samples, fps,
                                         [&](int f) { return evaluate_axis(channel, animation.frame_count, f, group == 'S'); }));
  }
}

void add_node(const JointAnimation& animation, std::size_t index, const std::vector<double>& samples, double fps,
              AnimationCurves& curves) {
  const auto& node = animation.nodes[index];
  add_axes(animation, index, node.translation, 'T', samples, fps, curves);
  if (node.rotation.source == Source::animated) {
    const auto stored = sample_frames(animation.frame_count, node.rotation.info);
    for (std::size_t cell = 0; cell < 9; ++cell)
      curves.channels.push_back(channel_of(index, fmt::format("R.m{}{}", cell / 3, cell % 3), stored, samples, fps,
                                           [&](int f) {
                                             return evaluate_rotation(animation, node.rotation, f)[cell];
                                           }));
  }
  add_axes(animation, index, node.scale, 'S', samples, fps, curves);
}

}  // namespace

Answer<std::vector<AnimationCurves>> curves_nodes(std::span<const std::byte> bytes, const CurveRequest& request) {
  auto parsed = parse_nsbca(bytes);
  if (!parsed) return file_error(parsed.error());
  if (!request.slot.empty()) return usage_error("NSBCA animations are chosen by name with --anim, not --slot");
  const double fps = request.fps.value_or(kDefaultFps);
  std::vector<AnimationCurves> all;
  std::size_t chosen = 0;
  std::string names;
  for (const auto& animation : parsed.value().animations) {
    names += (names.empty() ? "" : ", ") + animation.name;
    if (!request.animation.empty() && animation.name != request.animation) continue;
    AnimationCurves curves;
    curves.values = Precision::fixed_point;  // 1/4096 steps, and cells computed from them
    curves.rotations = RotationChannels::matrix_rows;
    curves.animation = animation.name;
    curves.end_seconds = animation.frame_count > 0 ? (animation.frame_count - 1) / fps : 0.0;
    curves.frames_per_second = fps;
    const auto samples = sample_times(0, curves.end_seconds, request.samples_per_second);
    if (!samples) return too_many_samples(0, curves.end_seconds, request.samples_per_second);
    // At most T, R (as many components as a matrix) and S per node.
    if (auto refused = check_animation_samples(samples->size(), 15 * animation.nodes.size(), request.samples_per_second))
      return *refused;
    for (std::size_t index = 0; index < animation.nodes.size(); ++index) add_node(animation, index, *samples, fps, curves);
    ++chosen;
    deliver(request, all, std::move(curves));
  }
  if (chosen == 0)
    return usage_error(names.empty() ? "the file holds no animation"
                                     : fmt::format("no animation named '{}'; it has: {}", request.animation, names));
  return all;
}

}  // namespace animdex::nsbca
