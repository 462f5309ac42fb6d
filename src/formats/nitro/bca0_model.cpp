#include "formats/nitro/bca0_model.h"

#include <algorithm>
#include <fmt/format.h>

#include "formats/nitro/bca0_decode.h"
#include "formats/nitro/nitro_sampled.h"

namespace animdex::nsbca {

namespace {

bool stored(Source source) { return source == Source::constant || source == Source::animated; }

// Frames with a stored sample in any animated axis, ascending and once each; frame 0 alone when
// every axis is constant.
std::vector<int> key_frames(const std::array<AxisChannel, 3>& axes, int frame_count) {
  std::vector<nitro::Steps> animated;
  for (const auto& axis : axes)
    if (axis.source == Source::animated) animated.push_back(sized_steps(frame_count, axis.info.step()));
  return nitro::union_sample_frames(animated, frame_count);
}

// Columns sized once for `frames` in the file's arena, times and frames filled (the same numbers:
// NSBCA keys are frame indexes). Not zero-filled: the caller writes every word of the `values`
// columns in place.
model::KeyColumns sized_columns(const std::vector<int>& frames, unsigned values,
                                const std::shared_ptr<model::ColumnArena>& arena) {
  model::KeyColumns keys(frames.size(), model::KeyColumns::kFrame | values, arena, model::ColumnFill::by_caller);
  std::copy(frames.begin(), frames.end(), keys.time().begin());
  std::copy(frames.begin(), frames.end(), keys.frame().begin());
  return keys;
}

std::string encoding_of(const std::array<AxisChannel, 3>& axes) {
  bool fx16 = false, fx32 = false;
  for (const auto& axis : axes)
    if (axis.source == Source::animated) (axis.info.fx16() ? fx16 : fx32) = true;
  if (fx16 && fx32) return "fx16+fx32";
  return fx16 ? "fx16" : "fx32";  // constant axes alone are stored as fx32
}

model::BoneTrack axes_track(const JointAnimation& animation, const NodeAnimation& node, std::size_t index,
                            const std::array<AxisChannel, 3>& axes, bool is_scale,
                            const std::shared_ptr<model::ColumnArena>& arena) {
  model::BoneTrack track;
  track.bone_id = static_cast<std::int64_t>(index);
  track.flags = node.tag;
  track.track_flags = is_scale ? 0x02 : 0x01;  // GNT's SCALE / TRANSLATE bits
  track.channels = is_scale ? "S" : "T";
  track.value_encoding = encoding_of(axes);
  const auto frames = key_frames(axes, animation.frame_count);
  auto& keys = track.keys = sized_columns(frames, model::KeyColumns::kXYZ, arena);
  for (std::size_t k = 0; k < frames.size(); ++k)
    for (std::size_t v = 0; v < 3; ++v) keys.value(v)[k] = evaluate_axis(axes[v], animation.frame_count, frames[k], is_scale);
  track.total_time = keys.time().back();
  return track;
}

model::BoneTrack rotation_track(const JointAnimation& animation, const NodeAnimation& node, std::size_t index,
                                const std::shared_ptr<model::ColumnArena>& arena) {
  model::BoneTrack track;
  track.bone_id = static_cast<std::int64_t>(index);
  track.flags = node.tag;
  track.track_flags = 0x08;  // GNT's ROTATE bit
  track.channels = "R";
  track.value_encoding = "rotation_index";
  const std::vector<int> frames =
      node.rotation.source == Source::animated ? sample_frames(animation.frame_count, node.rotation.info)
                                               : std::vector<int>{0};
  auto& keys = track.keys = sized_columns(frames, model::KeyColumns::kXYZW, arena);
  // The DS holds rotations in 1/4096 fixed point: float32 keeps far more than that, and the
  // database stores the quaternion in half the bytes of a double.
  const auto narrow = [](double value) { return static_cast<double>(static_cast<float>(value)); };
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const auto quaternion = quaternion_from_rows(evaluate_rotation(animation, node.rotation, frames[k]));
    for (std::size_t v = 0; v < 4; ++v) keys.value(v)[k] = narrow(quaternion[v]);
  }
  track.total_time = keys.time().back();
  return track;
}

bool group_is_stored(const std::array<AxisChannel, 3>& axes) {
  return std::any_of(axes.begin(), axes.end(), [](const AxisChannel& axis) { return stored(axis.source); });
}

// Where each of the node's channel groups comes from, as a `node_states` row (nitro_tables.sql).
model::FormatRow node_state_row(const NodeAnimation& node, std::size_t index, std::size_t animation_index) {
  return {"node_states",
          animation_index,
          {{"node_index", model::number(index)},
           {"node_id", model::number(node.node_id())},
           {"tag", model::number(node.tag)},
           {"t_state", group_state(node.translation)},
           {"r_state", std::string(source_name(node.rotation.source))},
           {"s_state", group_state(node.scale)}}};
}

}  // namespace

model::AnimationFile to_model(const NsbcaFile& file) {
  model::AnimationFile out;
  out.properties.push_back({"version", std::to_string(file.version)});
  out.properties.push_back({"animation_count", std::to_string(file.animations.size())});
  // Every track's columns from one arena for the file, as GNT's and KH2's.
  const auto arena = model::make_column_arena();
  for (const auto& animation : file.animations) {
    const std::int64_t frame_count = animation.frame_count;
    model::Animation result;
    result.name = animation.name;
    result.frame_count = frame_count;
    result.end_time = static_cast<double>(frame_count - 1);
    for (std::size_t index = 0; index < animation.nodes.size(); ++index) {
      const auto& node = animation.nodes[index];
      out.format_rows.push_back(node_state_row(node, index, out.animations.size()));
      if (group_is_stored(node.translation))
        result.tracks.push_back(axes_track(animation, node, index, node.translation, false, arena));
      if (stored(node.rotation.source)) result.tracks.push_back(rotation_track(animation, node, index, arena));
      if (group_is_stored(node.scale))
        result.tracks.push_back(axes_track(animation, node, index, node.scale, true, arena));
    }
    out.animations.push_back(std::move(result));
  }
  out.warnings = file.warnings;
  return out;
}

}  // namespace animdex::nsbca
