#include "rig/skeleton_link.h"

#include <fmt/format.h>

namespace animdex::rig {

namespace {

bool same_transform(const Transform& a, const Transform& b) {
  return a.translation == b.translation && a.rotation == b.rotation && a.scale == b.scale;
}

// The distinct skeletons among `found` (identical ones merged where the entry says so).
std::vector<const SkeletonCandidate*> distinct(const ExportEntry& entry, const std::vector<const SkeletonCandidate*>& found) {
  if (!entry.merge_identical) return found;
  std::vector<const SkeletonCandidate*> kept;
  for (const auto* candidate : found) {
    bool seen = false;
    for (const auto* other : kept) seen = seen || same_skeleton(candidate->skeleton, other->skeleton);
    if (!seen) kept.push_back(candidate);
  }
  return kept;
}

std::string sources(const std::vector<const SkeletonCandidate*>& found) {
  std::string text;
  for (std::size_t i = 0; i < found.size() && i < 6; ++i) text += (i ? ", " : "") + found[i]->source;
  if (found.size() > 6) text += fmt::format(" and {} more", found.size() - 6);
  return text;
}

}  // namespace

bool same_skeleton(const model::Skeleton& a, const model::Skeleton& b) {
  if (a.joints.size() != b.joints.size()) return false;
  for (std::size_t j = 0; j < a.joints.size(); ++j)
    if (a.joints[j].parent != b.joints[j].parent || !same_transform(a.joints[j].bind, b.joints[j].bind)) return false;
  return true;
}

std::string misfit(const ExportEntry& entry, const model::Skeleton& skeleton) {
  const auto joints = skeleton.joints.size();
  if (entry.exact_joints && joints != entry.joints)
    return fmt::format("'{}' animates {} joints; the model '{}' has {}", entry.name, entry.joints, skeleton.name, joints);
  if (!entry.exact_joints && joints < entry.joints)
    return fmt::format("'{}' animates {} joints, more than the model '{}' has ({})", entry.name, entry.joints,
                       skeleton.name, joints);
  return {};
}

SkeletonLink choose_skeleton(const ExportEntry& entry, const std::vector<SkeletonCandidate>& candidates) {
  for (const auto& name : entry.skeleton_names) {
    std::vector<const SkeletonCandidate*> named, fitting;
    for (const auto& candidate : candidates) {
      if (candidate.skeleton.name != name) continue;
      named.push_back(&candidate);
      if (misfit(entry, candidate.skeleton).empty()) fitting.push_back(&candidate);
    }
    const auto kept = distinct(entry, fitting);
    if (kept.size() == 1 && (entry.exact_joints || named.size() == 1)) return {kept.front(), "name", {}};
    if (kept.size() > 1 || (!entry.exact_joints && !named.empty()))
      return {nullptr, "none",
              kept.size() > 1 ? fmt::format("{} {} are named '{}' ({}); none is taken", kept.size(),
                                            entry.merge_identical ? "different skeletons" : "models", name, sources(kept))
                              : named.size() > 1 ? fmt::format("{} models are named '{}' ({}); none is taken", named.size(), name, sources(named))
                                                 : misfit(entry, named.front()->skeleton)};
  }
  if (entry.by_joint_count) {
    std::vector<const SkeletonCandidate*> counted;
    for (const auto& candidate : candidates)
      if (candidate.skeleton.joints.size() == entry.joints) counted.push_back(&candidate);
    const auto kept = distinct(entry, counted);
    if (kept.size() == 1) return {kept.front(), "joint_count", {}};
    if (kept.size() > 1)
      return {nullptr, "none", fmt::format("{} models have its {} joints ({}); none is taken", kept.size(), entry.joints, sources(kept))};
  }
  std::string names;
  for (const auto& name : entry.skeleton_names) names += (names.empty() ? "'" : " or '") + name + "'";
  return {nullptr, "none",
          fmt::format("no model {}with {} joints beside it{}", names.empty() ? "" : "named " + names + " ", entry.joints,
                      candidates.empty() ? "" : fmt::format(" ({} models looked at)", candidates.size()))};
}

}  // namespace animdex::rig
