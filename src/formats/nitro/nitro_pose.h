#pragma once
// What every Nitro `pose` shares: choosing the animation by name, the integer frame the runtime
// evaluates (the DS plays 60 frames a second; the files store no rate) and the `about` fields.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/result.h"
#include "formats/capabilities.h"

namespace animdex::nitro {

// The animation `name` names (the first when empty), or a usage error listing the names there are.
template <typename Animation>
Answer<const Animation*> choose_animation(const std::vector<Animation>& animations, const std::string& name) {
  std::string names;
  for (const auto& candidate : animations) {
    if (name.empty() || candidate.name == name) return &candidate;
    names += (names.empty() ? "" : ", ") + candidate.name;
  }
  return usage_error(animations.empty() ? "the file holds no animation"
                                        : fmt::format("no animation named '{}'; it has: {}", name, names));
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
  pose.about = pose_about(animation.name, std::get<int>(frame), request_fps(request), animation.frame_count);
  fill(animation, std::get<int>(frame), pose);
  return pose;
}

}  // namespace animdex::nitro
