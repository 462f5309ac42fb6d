#include "formats/gnt_mot/gnt_mot_capabilities.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "core/listing.h"
#include "formats/curve_sampling.h"
#include "formats/gnt_mot/gnt_mot_evaluate.h"
#include "formats/gnt_mot/gnt_mot_parser.h"

namespace animdex::gnt_mot {

namespace {

std::string id_text(std::uint32_t id) { return fmt::format("0x{:04X}", id); }

std::string ids_listed(const MotFile& file) {
  std::vector<std::string> ids;
  ids.reserve(file.animations.size());
  for (const auto& animation : file.animations) ids.push_back(id_text(animation.animation_id));
  return listing_text(ids, "animations");
}

// The animation --slot names (its ID, decimal or 0x hex), or the file's only one; nullptr with
// `error` set when the file has no such animation, or several and none was named (a pose of the
// first would be a silent choice).
const GntAnimation* chosen(const MotFile& file, const std::string& slot, const std::string& animation,
                           CapabilityError& error) {
  const std::string& asked = slot.empty() ? animation : slot;
  if (file.animations.empty()) {
    error = usage_error("the file has no animations (every slot is empty)");
    return nullptr;
  }
  if (asked.empty()) {
    if (file.animations.size() == 1) return &file.animations.front();
    error = usage_error(fmt::format("the file has {} animations: choose one with --slot ID ({})",
                                    file.animations.size(), ids_listed(file)));
    return nullptr;
  }
  const auto id = parse_slot_number(asked);
  for (const auto& candidate : file.animations)
    if (id && candidate.animation_id == static_cast<unsigned long long>(*id)) return &candidate;
  error = usage_error(fmt::format("no animation {} (GNT animations are chosen by ID with --slot; the file has {})",
                                  asked, ids_listed(file)));
  return nullptr;
}

std::vector<double> as_vector(const auto& optional_array) {
  if (!optional_array) return {};
  return {optional_array->begin(), optional_array->end()};
}

PoseValue vector_cell(const auto& optional_array) {
  if (!optional_array) return std::monostate{};
  return as_vector(optional_array);
}

// First and last key time over the animation's tracks (0, end_time when it has no keys).
std::pair<double, double> key_range(const GntAnimation& animation) {
  double first = std::numeric_limits<double>::infinity(), last = -first;
  for (const auto& track : animation.bones)
    if (!track.key_times.empty()) {
      first = std::min<double>(first, track.key_times.front());
      last = std::max<double>(last, track.key_times.back());
    }
  if (first > last) return {0.0, animation.end_time};
  return {first, last};
}

void add_channels(const BoneAnimation& track, char vector, std::size_t components, const std::vector<double>& samples,
                  AnimationCurves& curves) {
  static constexpr char kAxes[] = "xyzw";
  for (std::size_t c = 0; c < components; ++c) {
    ChannelCurve channel;
    channel.node = track.bone_id;
    channel.node_kind = "bone";
    channel.channel = fmt::format("{}.{}", vector, kAxes[c]);
    channel.key_times.assign(track.key_times.begin(), track.key_times.end());
    channel.key_values = component_values(track, c);
    channel.sample_times = samples;
    for (const double time : samples) channel.sample_values.push_back(interpolate(track.key_times, channel.key_values, time));
    curves.channels.push_back(std::move(channel));
  }
}

Answer<AnimationCurves> animation_curves(const GntAnimation& animation, double samples_per_second) {
  const auto [start, end] = key_range(animation);
  const auto samples = sample_times(start, end, samples_per_second);
  if (!samples) return too_many_samples(start, end, samples_per_second);
  // At most T, R (4) and S per bone.
  if (auto refused = check_animation_samples(samples->size(), 10 * animation.bones.size(), samples_per_second))
    return *refused;
  AnimationCurves curves;
  curves.values = Precision::float32;
  curves.animation = id_text(animation.animation_id);
  curves.slot = std::to_string(animation.animation_id);
  curves.motion_id = animation.animation_id;
  curves.start_seconds = start;
  curves.end_seconds = end;
  curves.frames_per_second = kFramesPerSecond;
  for (const auto& track : animation.bones) {
    if (track.coordinate_words.empty()) continue;  // time-only: keys without values
    if (track.track_flags & kTrackTranslate) add_channels(track, 'T', 3, *samples, curves);
    if (track.track_flags & kTrackRotate) add_channels(track, 'R', 4, *samples, curves);
    if (track.track_flags & kTrackScale) add_channels(track, 'S', 3, *samples, curves);
  }
  return curves;
}

}  // namespace

Answer<Pose> pose_bones(std::span<const std::byte> bytes, const PoseRequest& request) {
  auto parsed = parse_mot(bytes);
  if (!parsed) return file_error(parsed.error());
  CapabilityError error;
  const auto* animation = chosen(parsed.value(), request.slot, request.animation, error);
  if (!animation) return error;
  const double fps = request.fps.value_or(kFramesPerSecond);
  const double seconds = request.seconds ? *request.seconds : *request.frame / fps;
  Pose pose;
  pose.values = Precision::float32;
  pose.about = {{"slot", std::to_string(animation->animation_id)},
                {"animation", id_text(animation->animation_id)},
                {"time", seconds},
                {"frame", seconds * kFramesPerSecond},
                {"fps", kFramesPerSecond},
                {"end_time", static_cast<double>(animation->end_time)}};
  pose.rows_name = "nodes";
  pose.columns = {"node", "name", "T", "R", "S"};
  pose.vector_sizes = {0, 0, 3, 4, 3};
  const auto [first, last] = key_range(*animation);
  if (static_cast<float>(seconds) < static_cast<float>(first) || static_cast<float>(seconds) > static_cast<float>(last))
    pose.notes.push_back(fmt::format("time {} s is {} the keys of {} ({} to {} s): GNT holds the {} key's values there",
                                     number_text(as_computed(seconds)), seconds < first ? "before" : "after",
                                     id_text(animation->animation_id), number_text(first), number_text(last),
                                     seconds < first ? "first" : "last"));
  for (const auto& bone : evaluate(*animation, seconds))
    pose.rows.push_back({std::int64_t{bone.bone_id}, std::monostate{}, vector_cell(bone.translate),
                         vector_cell(bone.rotate), vector_cell(bone.scale)});
  return pose;
}

Answer<std::vector<AnimationCurves>> curves_bones(std::span<const std::byte> bytes, const CurveRequest& request) {
  auto parsed = parse_mot(bytes);
  if (!parsed) return file_error(parsed.error());
  std::vector<AnimationCurves> all;
  if (request.slot.empty() && request.animation.empty()) {
    for (const auto& animation : parsed.value().animations) {
      auto curves = animation_curves(animation, request.samples_per_second);
      if (auto* refused = std::get_if<CapabilityError>(&curves)) return *refused;
      deliver(request, all, std::get<AnimationCurves>(std::move(curves)));
    }
    return all;
  }
  CapabilityError error;
  const auto* animation = chosen(parsed.value(), request.slot, request.animation, error);
  if (!animation) return error;
  auto curves = animation_curves(*animation, request.samples_per_second);
  if (auto* refused = std::get_if<CapabilityError>(&curves)) return *refused;
  deliver(request, all, std::get<AnimationCurves>(std::move(curves)));
  return all;
}

}  // namespace animdex::gnt_mot
