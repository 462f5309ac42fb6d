#include "formats/nsbca/nsbca_model.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

#include "formats/nsbca/nsbca_decode.h"

namespace animdex::nsbca {

namespace {

bool stored(Source source) { return source == Source::constant || source == Source::animated; }

// Frames with a stored sample in any animated axis; frame 0 alone when every axis is constant.
std::vector<int> key_frames(const std::array<AxisChannel, 3>& axes, int frame_count) {
  std::set<int> frames;
  for (const auto& axis : axes)
    if (axis.source == Source::animated)
      for (int frame : sample_frames(frame_count, axis.info)) frames.insert(frame);
  if (frames.empty()) frames.insert(0);
  return {frames.begin(), frames.end()};
}

std::string encoding_of(const std::array<AxisChannel, 3>& axes) {
  std::set<std::string> kinds;
  for (const auto& axis : axes)
    if (axis.source == Source::animated) kinds.insert(axis.info.fx16() ? "fx16" : "fx32");
  if (kinds.empty()) return "fx32";
  return kinds.size() == 1 ? *kinds.begin() : "fx16+fx32";
}

model::BoneTrack axes_track(const JointAnimation& animation, const NodeAnimation& node, std::size_t index,
                            const std::array<AxisChannel, 3>& axes, bool is_scale) {
  model::BoneTrack track;
  track.bone_id = static_cast<std::int64_t>(index);
  track.flags = node.tag;
  track.track_flags = is_scale ? 0x02 : 0x01;  // GNT's SCALE / TRANSLATE bits
  track.channels = is_scale ? "S" : "T";
  track.value_encoding = encoding_of(axes);
  for (int frame : key_frames(axes, animation.frame_count)) {
    model::Key key;
    key.time = frame;
    key.frame = frame;
    key.x = evaluate_axis(axes[0], animation.frame_count, frame, is_scale);
    key.y = evaluate_axis(axes[1], animation.frame_count, frame, is_scale);
    key.z = evaluate_axis(axes[2], animation.frame_count, frame, is_scale);
    track.keys.push_back(key);
  }
  track.total_time = track.keys.back().time;
  return track;
}

model::BoneTrack rotation_track(const JointAnimation& animation, const NodeAnimation& node, std::size_t index) {
  model::BoneTrack track;
  track.bone_id = static_cast<std::int64_t>(index);
  track.flags = node.tag;
  track.track_flags = 0x08;  // GNT's ROTATE bit
  track.channels = "R";
  track.value_encoding = "rotation_index";
  const std::vector<int> frames =
      node.rotation.source == Source::animated ? sample_frames(animation.frame_count, node.rotation.info)
                                               : std::vector<int>{0};
  for (int frame : frames) {
    const auto quaternion = quaternion_from_rows(evaluate_rotation(animation, node.rotation, frame));
    model::Key key;
    key.time = frame;
    key.frame = frame;
    // The DS holds rotations in 1/4096 fixed point: float32 keeps far more than that, and the
    // database stores the quaternion in half the bytes of a double.
    const auto narrow = [](double value) { return static_cast<double>(static_cast<float>(value)); };
    key.x = narrow(quaternion[0]), key.y = narrow(quaternion[1]), key.z = narrow(quaternion[2]);
    key.w = narrow(quaternion[3]);
    track.keys.push_back(key);
  }
  track.total_time = track.keys.back().time;
  return track;
}

bool group_is_stored(const std::array<AxisChannel, 3>& axes) {
  return std::any_of(axes.begin(), axes.end(), [](const AxisChannel& axis) { return stored(axis.source); });
}

// Where each of the node's channel groups comes from, as a `node_states` row (nsbca_tables.sql).
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
        result.tracks.push_back(axes_track(animation, node, index, node.translation, false));
      if (stored(node.rotation.source)) result.tracks.push_back(rotation_track(animation, node, index));
      if (group_is_stored(node.scale)) result.tracks.push_back(axes_track(animation, node, index, node.scale, true));
    }
    out.animations.push_back(std::move(result));
  }
  out.warnings = file.warnings;
  return out;
}

}  // namespace animdex::nsbca
