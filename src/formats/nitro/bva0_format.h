#pragma once
#include "formats/format.h"
#include "formats/nitro/bva0_parser.h"

namespace animdex::nitro {

// One track per node (`visible`: x = 1 shown, 0 hidden), a key at frame 0 and at every change.
model::AnimationFile bva0_to_model(const Bva0File& file);
// Every node's visibility at an integer frame.
Answer<Pose> bva0_pose(std::span<const std::byte> bytes, const PoseRequest& request);

FormatModule bva0_format_module();

}  // namespace animdex::nitro
