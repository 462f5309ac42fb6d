#pragma once
#include "formats/gnt_mot/gnt_mot_types.h"
#include "model/animation.h"

namespace animdex::gnt_mot {

// Maps a parsed .mot to the common model: one Animation per non-empty slot
// (slot = motion_id = animation ID), one BoneTrack per bone animation, decoded keys.
model::AnimationFile to_model(const MotFile& mot);

// Channel letters (T, R, S) named by the track flags.
std::string channels_from_track_flags(std::uint16_t track_flags);

}  // namespace animdex::gnt_mot
