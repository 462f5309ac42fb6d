#pragma once
// Which skeleton an animation plays on, among the model files beside it (its folder, or the other
// members of its container): the link rule the index applies (nitro_after_index.sql,
// kh2_after_index.sql) in the terms an ExportEntry states it. Never a guess: several different
// candidates, or none, is no link, with the reason.
#include <string>
#include <vector>

#include "formats/capabilities.h"

namespace animdex::rig {

struct SkeletonCandidate {
  std::string source;  // where it was found, for messages (a path, with the model's name in a model set)
  model::Skeleton skeleton;
};

struct SkeletonLink {
  const SkeletonCandidate* chosen = nullptr;  // nullptr: no link
  std::string method;  // "name" (the first of the entry's names that has candidates), "joint_count", "none"
  std::string why;     // for no link: what was found
};

SkeletonLink choose_skeleton(const ExportEntry& entry, const std::vector<SkeletonCandidate>& candidates);

// Whether two skeletons are one: the same joints, parents and bind pose, number for number.
bool same_skeleton(const model::Skeleton& a, const model::Skeleton& b);

// Why `skeleton` cannot carry the entry's animation (a joint count that differs, or is too small);
// empty when it can.
std::string misfit(const ExportEntry& entry, const model::Skeleton& skeleton);

}  // namespace animdex::rig
