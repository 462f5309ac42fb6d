#pragma once
// NSBCA in the common model: one animation per J.AC; per node, one track for each channel group
// (T, R, S) that is constant or animated, with keys at the stored samples' frames.
#include "formats/nitro/bca0_types.h"
#include "model/animation.h"

namespace animdex::nsbca {

model::AnimationFile to_model(const NsbcaFile& file);

}  // namespace animdex::nsbca
