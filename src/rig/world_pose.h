#pragma once
// `pose --world`: each joint's world transform, composed from the skeleton and one sampled frame
// of local transforms (model::world_matrices): the position and the 4x4 matrix (printed row-major),
// in the model's units. What the glTF export's nodes compose to at the same time.
#include <string>

#include "formats/capabilities.h"

namespace animdex::rig {

// Rows node, name, parent, P (x, y, z), M (the 4x4 world matrix, row-major, column vectors: its
// last column is P). `about` is left to the caller.
Pose world_pose(const model::Skeleton& skeleton, const std::vector<Transform>& locals);

}  // namespace animdex::rig
