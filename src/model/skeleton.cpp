#include "model/skeleton.h"

#include <cmath>

#include <fmt/format.h>

namespace animdex::model {

namespace {

// 0 unvisited, 1 on the current path, 2 done: a joint met again on its own path closes a loop.
bool reaches_root(const Skeleton& skeleton, std::size_t joint, std::vector<int>& state) {
  std::vector<std::size_t> path;
  std::size_t at = joint;
  while (true) {
    if (state[at] == 2) break;
    if (state[at] == 1) return false;
    state[at] = 1;
    path.push_back(at);
    const auto parent = skeleton.joints[at].parent;
    if (parent < 0) break;
    at = static_cast<std::size_t>(parent);
  }
  for (const auto visited : path) state[visited] = 2;
  return true;
}

}  // namespace

std::optional<std::string> validate(const Skeleton& skeleton) {
  const auto count = static_cast<std::int64_t>(skeleton.joints.size());
  if (count == 0) return "the skeleton has no joint";
  for (std::int64_t j = 0; j < count; ++j) {
    const auto& joint = skeleton.joints[static_cast<std::size_t>(j)];
    if (joint.parent < -1 || joint.parent >= count || joint.parent == j)
      return fmt::format("joint {}: parent {} is not -1 or another of the {} joints", j, joint.parent, count);
    if (!finite(joint.bind)) return fmt::format("joint {}: the bind pose holds a value that is not finite", j);
  }
  std::vector<int> state(skeleton.joints.size(), 0);
  for (std::size_t j = 0; j < skeleton.joints.size(); ++j)
    if (!reaches_root(skeleton, j, state)) return fmt::format("joint {}: its parents form a loop", j);
  return std::nullopt;
}

std::optional<std::string> validate(const SampledAnimation& animation, const Skeleton& skeleton) {
  if (!(animation.fps > 0) || !std::isfinite(animation.fps)) return fmt::format("'{}': the rate is not positive", animation.name);
  if (animation.frames.empty()) return fmt::format("'{}': the animation has 0 frames", animation.name);
  for (std::size_t f = 0; f < animation.frames.size(); ++f) {
    if (animation.frames[f].size() != skeleton.joints.size())
      return fmt::format("'{}': frame {} has {} joints, the skeleton {}", animation.name, f, animation.frames[f].size(),
                         skeleton.joints.size());
    for (std::size_t j = 0; j < animation.frames[f].size(); ++j)
      if (!finite(animation.frames[f][j]))
        return fmt::format("'{}': frame {} joint {} holds a value that is not finite", animation.name, f, j);
  }
  return std::nullopt;
}

std::vector<Matrix4> world_matrices(const Skeleton& skeleton, const std::vector<Transform>& locals) {
  std::vector<Matrix4> world(skeleton.joints.size());
  std::vector<bool> done(skeleton.joints.size(), false);
  // Iterative so a deep chain cannot overflow the stack; each joint is composed once.
  std::vector<std::size_t> pending;
  for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
    for (std::size_t at = j; !done[at];) {
      pending.push_back(at);
      const auto parent = skeleton.joints[at].parent;
      if (parent < 0) break;
      at = static_cast<std::size_t>(parent);
    }
    while (!pending.empty()) {
      const auto at = pending.back();
      pending.pop_back();
      const auto parent = skeleton.joints[at].parent;
      const auto local = matrix_of(locals[at]);
      world[at] = parent < 0 ? local : multiply(world[static_cast<std::size_t>(parent)], local);
      done[at] = true;
    }
  }
  return world;
}

std::vector<Transform> bind_pose(const Skeleton& skeleton) {
  std::vector<Transform> pose;
  pose.reserve(skeleton.joints.size());
  for (const auto& joint : skeleton.joints) pose.push_back(joint.bind);
  return pose;
}

}  // namespace animdex::model
