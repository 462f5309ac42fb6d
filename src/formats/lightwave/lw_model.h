#pragma once
#include "formats/lightwave/lw_types.h"
#include "model/animation.h"

namespace animdex::lightwave {

// One Animation per file (named after the file by the indexer), one BoneTrack per channel
// (bone_id empty; `channels` holds the channel's name: x, y, z, heading, pitch, bank, sx, sy, sz,
// or value for envelopes), keys with the value in x, splines and behaviours alongside.
// v1: times are frames (Key::frame set); v3: seconds (Key::frame empty).
model::AnimationFile to_model(const LwFile& file);

// Kuper frames: one track per axis (channels = the axis name), key time = frame = line index.
model::AnimationFile to_model(const KuperFile& kuper);

}  // namespace animdex::lightwave
