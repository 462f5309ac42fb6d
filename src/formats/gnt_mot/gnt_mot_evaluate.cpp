#include "formats/gnt_mot/gnt_mot_evaluate.h"

#include <algorithm>
#include <map>

namespace animdex::gnt_mot {

double interpolate(std::span<const float> key_times, std::span<const double> values, double seconds) {
  if (key_times.empty() || values.size() != key_times.size()) return 0.0;
  // Keys are found in the file's own unit, float32 seconds: frame 8 at 60 fps is 0.1333333 as a
  // double but the key's float 0.13333334, and must give that key's value, not a blend with 1e-7
  // of the one before.
  const float at = static_cast<float>(seconds);
  // The last key at or before `at`: upper_bound skips every key at that very time.
  const auto after = std::upper_bound(key_times.begin(), key_times.end(), at);
  if (after == key_times.begin()) return values.front();
  const auto left = static_cast<std::size_t>(after - key_times.begin()) - 1;
  if (after == key_times.end() || key_times[left] == at) return values[left];
  const double t0 = key_times[left], t1 = key_times[left + 1];
  const double share = (seconds - t0) / (t1 - t0);  // rounding is monotonic: seconds >= t0
  return values[left] + (values[left + 1] - values[left]) * share;
}

std::vector<double> component_values(const BoneAnimation& track, std::size_t component) {
  const auto encoding = encoding_from_flags(track.flags1).value_or(CoordinateEncoding::none);
  std::vector<double> values;
  values.reserve(track.coordinate_words.size());
  for (const auto& words : track.coordinate_words) values.push_back(decode_coordinate(words[component], encoding));
  return values;
}

namespace {

template <std::size_t N>
std::array<double, N> track_vector(const BoneAnimation& track, double seconds) {
  std::array<double, N> vector{};
  for (std::size_t c = 0; c < N; ++c) vector[c] = interpolate(track.key_times, component_values(track, c), seconds);
  return vector;
}

}  // namespace

std::vector<BonePose> evaluate(const GntAnimation& animation, double seconds) {
  std::map<std::uint16_t, BonePose> bones;
  for (const auto& track : animation.bones) {
    auto& bone = bones[track.bone_id];
    bone.bone_id = track.bone_id;
    const bool values = !track.coordinate_words.empty() && track.coordinate_words.size() == track.key_times.size() &&
                        encoding_from_flags(track.flags1).value_or(CoordinateEncoding::none) != CoordinateEncoding::none;
    if (!values) continue;
    if (track.track_flags & kTrackTranslate) bone.translate = track_vector<3>(track, seconds);
    if (track.track_flags & kTrackRotate) bone.rotate = track_vector<4>(track, seconds);
    if (track.track_flags & kTrackScale) bone.scale = track_vector<3>(track, seconds);
  }
  std::vector<BonePose> poses;
  poses.reserve(bones.size());
  for (auto& [id, bone] : bones) poses.push_back(bone);
  return poses;
}

}  // namespace animdex::gnt_mot
