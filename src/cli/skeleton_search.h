#pragma once
// Where `pose --world` and `export --gltf` get a skeleton: a model named with --model, or the
// model files beside the animation (its folder; the other members of its container's folder),
// read as the index reads them. The link rule itself is rig/skeleton_link.h.
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "rig/skeleton_link.h"

namespace animdex {

// Every skeleton of a model file or member (a DS model set: each model), or the exit code of why
// not (printed): missing, not a model, broken, or holding no skeleton.
std::variant<std::vector<rig::SkeletonCandidate>, int> skeletons_of_model(const std::filesystem::path& model);

// The skeletons of the model files beside `animation` (never `animation` itself); files that are
// not models, or broken ones, are passed over (the index reports those).
std::vector<rig::SkeletonCandidate> skeletons_beside(const std::filesystem::path& animation);

}  // namespace animdex
