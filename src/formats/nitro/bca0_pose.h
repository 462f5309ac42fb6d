#pragma once
// `animdex pose FILE.nsbca --anim NAME --frame F`: every node's local T, R (3x3, DS row-major
// layout) and S at an integer frame; empty where the channel comes from the model's bind pose.
#include <cstddef>
#include <span>

#include "formats/capabilities.h"

namespace animdex::nsbca {

Answer<Pose> pose_nodes(std::span<const std::byte> bytes, const PoseRequest& request);

}  // namespace animdex::nsbca
