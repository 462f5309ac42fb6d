#pragma once
// KH2 files in the common model: one animation per distinct motion, one track per curve
// (interpolated) or per bone and T/R/S (raw), and the slot table with its resolution.
#include <array>

#include "formats/kh2/kh2_motion_set.h"
#include "model/animation.h"

namespace animdex::kh2 {

model::AnimationFile to_model(const KH2File& file);
model::AnimationFile to_model(const Motion& motion);  // a bare Motion file
// With an arena, the curves' columns come from it (nullptr: the heap).
model::Animation motion_to_animation(const Motion& motion, const std::shared_ptr<model::ColumnArena>& arena = nullptr);

// Decomposes a row-major 4x4 (translation in elements 12..14) into translation, rotation
// quaternion (x, y, z, w) and scale; a mirrored basis gets a negative x scale.
struct Decomposed {
  std::array<double, 3> translation{}, scale{};
  std::array<double, 4> rotation{0, 0, 0, 1};
};
Decomposed decompose(const std::array<float, 16>& matrix);

}  // namespace animdex::kh2
