#pragma once
// Skeletons and sampled animations, the common model the world-space pose and the glTF export
// share (rules checked by validate()). Units are the file's own (DS model units, KH2 game units of
// about a centimetre); rotations are unit quaternions; times are seconds.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/transform.h"

namespace animdex::model {

struct Joint {
  std::string name;          // the file's name for it; empty where the format has none (KH2)
  std::int64_t parent = -1;  // another joint's position, -1 for a root
  Transform bind;            // local bind pose, relative to the parent
  // The bind rotation as the file stores it, Euler X then Y then Z in radians, for formats whose
  // animations key one angle at a time over it (KH2); empty elsewhere.
  std::optional<Vector3> bind_euler_xyz;
};

// Rules: at least one joint; each parent is -1 or another joint's position; no joint is its own
// ancestor; every number finite. A scale may be 0 (DS models hide a part so).
struct Skeleton {
  std::string name;  // what the link rule matches: DS the model's name, KH2 the model file's stem
  std::vector<Joint> joints;
};

// Rules: joints.size() == the skeleton's joints for every frame; frames at least one; `fps` > 0;
// every number finite.
struct SampledAnimation {
  std::string name;                   // what a modder recognises it by (KH2: slot, motion and purpose)
  double fps = 60;                    // samples per second
  double first_time = 0;              // seconds of frames[0]
  std::vector<std::vector<Transform>> frames;  // frames x joints, local transforms
  std::vector<std::string> notes;     // what the sampling left out (IK helpers, shear)
};

inline SampledAnimation sampled_animation(std::string name, double fps, double first_time) {
  SampledAnimation animation;
  animation.name = std::move(name);
  animation.fps = fps;
  animation.first_time = first_time;
  return animation;
}

std::optional<std::string> validate(const Skeleton& skeleton);
std::optional<std::string> validate(const SampledAnimation& animation, const Skeleton& skeleton);

// Each joint's world matrix (parents first whatever the order); the skeleton must be valid.
std::vector<Matrix4> world_matrices(const Skeleton& skeleton, const std::vector<Transform>& locals);
std::vector<Transform> bind_pose(const Skeleton& skeleton);

}  // namespace animdex::model
