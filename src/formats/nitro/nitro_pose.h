#pragma once
// What every Nitro `pose` shares: choosing the animation by name, the integer frame the runtime
// evaluates (the DS plays 60 frames a second; the files store no rate) and the `about` fields.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/result.h"
#include "core/listing.h"
#include "core/nearest_names.h"
#include "formats/capabilities.h"

namespace animdex::nitro {

// The animation --anim names, or the file's only one (of several, a pose of the first would be a
// silent choice: the error lists their names).
template <typename Animation>
Answer<const Animation*> choose_animation(const std::vector<Animation>& animations, const std::string& name) {
  std::vector<std::string> names;
  for (const auto& candidate : animations) {
    if (!name.empty() && candidate.name == name) return &candidate;
    names.push_back(candidate.name);
  }
  if (animations.empty()) return usage_error("the file holds no animation");
  if (name.empty() && animations.size() == 1) return &animations.front();
  if (name.empty())
    return usage_error(fmt::format("the file has {} animations: choose one with --anim NAME ({})", animations.size(),
                                   listing_text(names, "animations")));
  return usage_error(fmt::format("no animation named '{}'{}; it has: {}", name, nearest_hint(name, names),
                                 listing_text(names, "animations")));
}

// The request's frame as an integer inside 0..frame_count-1 (a time converts at the request's fps).
Answer<int> integer_frame(const PoseRequest& request, int frame_count, const std::string& animation);

double request_fps(const PoseRequest& request);

std::vector<std::pair<std::string, PoseValue>> pose_about(const std::string& animation, int frame, double fps,
                                                          int frame_count);

// The pose of a parsed animation file at the request's frame: chooses the animation, checks the
// frame, fills `about`, then lets `fill(animation, frame, pose)` add the format's columns and rows.
template <typename File, typename Fill>
Answer<Pose> animation_pose(const Result<File>& parsed, const PoseRequest& request, Fill fill) {
  if (!parsed) return file_error(parsed.error());
  const auto chosen = choose_animation(parsed.value().animations, request.animation);
  if (const auto* error = std::get_if<CapabilityError>(&chosen)) return *error;
  const auto& animation = *std::get<0>(chosen);
  const auto frame = integer_frame(request, animation.frame_count, animation.name);
  if (const auto* error = std::get_if<CapabilityError>(&frame)) return *error;
  Pose pose;
  pose.values = Precision::fixed_point;  // 1/4096 steps, and cells computed from them
  pose.about = pose_about(animation.name, std::get<int>(frame), request_fps(request), animation.frame_count);
  fill(animation, std::get<int>(frame), pose);
  return pose;
}

}  // namespace animdex::nitro
