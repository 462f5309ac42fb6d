#pragma once
#include "formats/format.h"
#include "formats/nitro/btp0_parser.h"

namespace animdex::nitro {

// Per material one `pattern` track, a key per stored key (x = texture index, y = palette index,
// 255 kept), and per animation the names behind the indexes as `pattern_names` rows.
model::AnimationFile btp0_to_model(const Btp0File& file);
// Every material's key in effect at an integer frame, with its texture and palette names.
Answer<Pose> btp0_pose(std::span<const std::byte> bytes, const PoseRequest& request);

FormatModule btp0_format_module();

}  // namespace animdex::nitro
