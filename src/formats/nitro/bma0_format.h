#pragma once
#include "formats/format.h"
#include "formats/nitro/bma0_parser.h"

namespace animdex::nitro {

// Per material five tracks: `diffuse`, `ambient`, `specular`, `emission` (x, y, z = R, G, B, 0..31)
// and `alpha` (x), keyed at the frames their arrays sample (frame 0 alone when constant).
model::AnimationFile bma0_to_model(const Bma0File& file);
// Every material's four colours and alpha at an integer frame.
Answer<Pose> bma0_pose(std::span<const std::byte> bytes, const PoseRequest& request);

FormatModule bma0_format_module();

}  // namespace animdex::nitro
