#include "model/validate.h"

#include <cmath>
#include <fmt/format.h>

namespace animdex::model {

namespace {

bool finite(const std::optional<double>& value) { return !value || std::isfinite(*value); }

std::optional<std::string> check_track(const BoneTrack& track) {
  if (!std::isfinite(track.total_time)) return "total time is not a finite number";
  if (track.bone_id && *track.bone_id < 0) return fmt::format("bone id {} is negative", *track.bone_id);
  if (!track.splines.empty() && track.splines.size() != track.keys.size())
    return fmt::format("{} splines for {} keys (empty or one per key)", track.splines.size(), track.keys.size());
  for (std::size_t k = 0; k < track.keys.size(); ++k) {
    const Key& key = track.keys[k];
    if (!std::isfinite(key.time)) return fmt::format("key {}: time is not a finite number", k);
    if (!finite(key.x) || !finite(key.y) || !finite(key.z) || !finite(key.w))
      return fmt::format("key {}: a value is not a finite number", k);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> validate(const AnimationFile& file) {
  for (std::size_t a = 0; a < file.animations.size(); ++a) {
    const Animation& animation = file.animations[a];
    for (const auto& value : {animation.play_speed, animation.end_time, animation.fps, animation.frame_start,
                              animation.frame_end, animation.frame_return})
      if (!finite(value)) return fmt::format("animation {}: a header number is not finite", a);
    for (std::size_t t = 0; t < animation.tracks.size(); ++t)
      if (auto problem = check_track(animation.tracks[t]))
        return fmt::format("animation {} track {}: {}", a, t, *problem);
  }
  for (std::size_t e = 0; e < file.archive_entries.size(); ++e) {
    const auto& index = file.archive_entries[e].animation_index;
    if (index && *index >= file.animations.size())
      return fmt::format("archive entry {}: animation index {} past the {} animations", e, *index,
                         file.animations.size());
  }
  return std::nullopt;
}

}  // namespace animdex::model
