#pragma once
#include "formats/format.h"
#include "formats/nitro/bmd0_parser.h"

namespace animdex::nitro {

// No animations: rows of `nitro_models`, `model_nodes` and `model_materials` (nitro_tables.sql).
model::AnimationFile bmd0_to_model(const Bmd0File& file);
// A model's bind pose (`--anim` names the model): every node's name, parent, T, R and S.
Answer<Pose> bmd0_pose(std::span<const std::byte> bytes, const PoseRequest& request);

FormatModule bmd0_format_module();

}  // namespace animdex::nitro
