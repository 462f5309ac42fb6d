#include "formats/gnt_mot/gnt_mot_model.h"

#include <cmath>
#include <string>

namespace animdex::gnt_mot {

namespace {

std::string encoding_name(CoordinateEncoding encoding) {
  switch (encoding) {
    case CoordinateEncoding::bf16: return "bf16x4";
    case CoordinateEncoding::f32: return "f32x4";
    case CoordinateEncoding::none: return "none";
  }
  return "none";
}

model::BoneTrack to_track(const BoneAnimation& bone) {
  model::BoneTrack track;
  track.bone_id = bone.bone_id;
  track.flags = bone.flags1;
  track.track_flags = bone.track_flags;
  track.channels = channels_from_track_flags(bone.track_flags);
  const auto encoding = encoding_from_flags(bone.flags1).value_or(CoordinateEncoding::none);
  track.value_encoding = encoding_name(encoding);
  track.total_time = bone.total_time;
  // Straight into the columns: each word decoded once, no per-key object.
  const std::size_t key_count = bone.key_count();
  auto& keys = track.keys;
  keys.time.assign(bone.key_times.begin(), bone.key_times.end());
  keys.frame.resize(key_count);
  for (std::size_t k = 0; k < key_count; ++k) keys.frame[k] = seconds_to_frame(bone.key_times[k]);
  if (bone.coordinate_words.size() != key_count) return track;  // a time-only track
  for (auto* column : {&keys.x, &keys.y, &keys.z, &keys.w}) column->resize(key_count);
  for (std::size_t k = 0; k < key_count; ++k) {
    const auto& words = bone.coordinate_words[k];
    keys.x[k] = decode_coordinate(words[0], encoding);
    keys.y[k] = decode_coordinate(words[1], encoding);
    keys.z[k] = decode_coordinate(words[2], encoding);
    keys.w[k] = decode_coordinate(words[3], encoding);
  }
  return track;
}

}  // namespace

std::string channels_from_track_flags(std::uint16_t track_flags) {
  std::string channels;
  if (track_flags & kTrackTranslate) channels += 'T';
  if (track_flags & kTrackRotate) channels += 'R';
  if (track_flags & kTrackScale) channels += 'S';
  return channels;
}

model::AnimationFile to_model(const MotFile& mot) {
  model::AnimationFile file;
  file.properties = {
      {"slot_count", std::to_string(mot.slot_count)},
      {"animation_count", std::to_string(mot.animations.size())},
      {"empty_slot_count", std::to_string(mot.slot_count - mot.animations.size())},
      {"declared_size", std::to_string(mot.declared_size)},
  };
  file.animations.reserve(mot.animations.size());
  for (const auto& gnta : mot.animations) {
    model::Animation animation;
    animation.slot = gnta.animation_id;
    animation.motion_id = gnta.animation_id;
    animation.play_speed = gnta.play_speed;
    animation.end_time = gnta.end_time;
    animation.frame_count = seconds_to_frame(gnta.end_time);
    animation.tracks.reserve(gnta.bones.size());
    for (const auto& bone : gnta.bones) animation.tracks.push_back(to_track(bone));
    file.animations.push_back(std::move(animation));
  }
  return file;
}

}  // namespace animdex::gnt_mot
