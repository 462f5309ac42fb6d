#pragma once
#include "formats/format.h"
#include "formats/nitro/bta0_parser.h"

namespace animdex::nitro {

// Per material three tracks, `scale` (x = S, y = T), `rotation` (x = sin, y = cos) and `translation`
// (x = S, y = T), keyed at the frames their arrays sample (frame 0 alone when constant).
model::AnimationFile bta0_to_model(const Bta0File& file);
// Every material's scale, rotation (sin, cos and the angle) and translation at an integer frame.
Answer<Pose> bta0_pose(std::span<const std::byte> bytes, const PoseRequest& request);

FormatModule bta0_format_module();

}  // namespace animdex::nitro
