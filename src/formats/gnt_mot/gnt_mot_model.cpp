#include "formats/gnt_mot/gnt_mot_model.h"

#include <cmath>
#include <string>

namespace animdex::gnt_mot {

namespace {

const char* encoding_name(CoordinateEncoding encoding) {
  switch (encoding) {
    case CoordinateEncoding::bf16: return "bf16x4";
    case CoordinateEncoding::f32: return "f32x4";
    case CoordinateEncoding::none: return "none";
  }
  return "none";
}

model::BoneTrack to_track(const BoneAnimation& bone) {
  model::BoneTrack track = model_track(bone.bone_id, bone.flags1, bone.track_flags, bone.total_time);
  const auto encoding = encoding_from_flags(bone.flags1).value_or(CoordinateEncoding::none);
  // Straight into the columns: each word decoded once, no per-key object.
  const std::size_t key_count = bone.key_count();
  const bool values = bone.coordinate_words.size() == key_count && encoding != CoordinateEncoding::none;
  auto& keys = track.keys =
      model::KeyColumns(key_count, model::KeyColumns::kFrame | (values ? model::KeyColumns::kXYZW : 0));
  for (std::size_t k = 0; k < key_count; ++k) {
    keys.time()[k] = bone.key_times[k];
    keys.frame()[k] = seconds_to_frame(bone.key_times[k]);
    for (std::size_t v = 0; values && v < 4; ++v) keys.value(v)[k] = decode_coordinate(bone.coordinate_words[k][v], encoding);
  }
  return track;
}

}  // namespace

std::string channels_from_track_flags(std::uint16_t track_flags) {
  char channels[3];
  std::size_t count = 0;
  if (track_flags & kTrackTranslate) channels[count++] = 'T';
  if (track_flags & kTrackRotate) channels[count++] = 'R';
  if (track_flags & kTrackScale) channels[count++] = 'S';
  return std::string(channels, count);
}

model::Animation model_animation(std::uint32_t animation_id, float play_speed, float end_time) {
  model::Animation animation;
  animation.slot = animation_id;
  animation.motion_id = animation_id;
  animation.play_speed = play_speed;
  animation.end_time = end_time;
  animation.frame_count = seconds_to_frame(end_time);
  return animation;
}

void set_track_fields(model::BoneTrack& track, std::uint16_t bone_id, std::uint16_t flags1, std::uint16_t track_flags,
                      float total_time) {
  track.bone_id = bone_id;
  track.flags = flags1;
  track.track_flags = track_flags;
  track.channels = channels_from_track_flags(track_flags);
  track.value_encoding = encoding_name(encoding_from_flags(flags1).value_or(CoordinateEncoding::none));
  track.total_time = total_time;
}

model::BoneTrack model_track(std::uint16_t bone_id, std::uint16_t flags1, std::uint16_t track_flags, float total_time) {
  model::BoneTrack track;
  set_track_fields(track, bone_id, flags1, track_flags, total_time);
  return track;
}

std::vector<model::Property> file_properties(std::uint32_t slot_count, std::uint32_t declared_size,
                                            std::size_t animation_count) {
  return {
      {"slot_count", std::to_string(slot_count)},
      {"animation_count", std::to_string(animation_count)},
      {"empty_slot_count", std::to_string(slot_count - animation_count)},
      {"declared_size", std::to_string(declared_size)},
  };
}

model::AnimationFile to_model(const MotFile& mot) {
  model::AnimationFile file;
  file.properties = file_properties(mot.slot_count, mot.declared_size, mot.animations.size());
  file.animations.reserve(mot.animations.size());
  for (const auto& gnta : mot.animations) {
    auto animation = model_animation(gnta.animation_id, gnta.play_speed, gnta.end_time);
    animation.tracks.reserve(gnta.bones.size());
    for (const auto& bone : gnta.bones) animation.tracks.push_back(to_track(bone));
    file.animations.push_back(std::move(animation));
  }
  return file;
}

}  // namespace animdex::gnt_mot
