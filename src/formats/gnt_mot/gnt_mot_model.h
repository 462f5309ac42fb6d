#pragma once
#include "formats/gnt_mot/gnt_mot_types.h"
#include "model/animation.h"

namespace animdex::gnt_mot {

// Maps a parsed .mot to the common model: one Animation per non-empty slot
// (slot = motion_id = animation ID), one BoneTrack per bone animation, decoded keys.
model::AnimationFile to_model(const MotFile& mot);

// Channel letters (T, R, S) named by the track flags.
std::string channels_from_track_flags(std::uint16_t track_flags);

// The parts of the mapping both paths share (to_model, and parse_mot_model's decoding as it reads):
// an animation's and a track's fields without keys, and the file's header facts. A track's fields
// can be set on a track already in its vector (the index's path: no BoneTrack moved per bone).
model::Animation model_animation(std::uint32_t animation_id, float play_speed, float end_time);
void set_track_fields(model::BoneTrack& track, std::uint16_t bone_id, std::uint16_t flags1, std::uint16_t track_flags,
                      float total_time);
model::BoneTrack model_track(std::uint16_t bone_id, std::uint16_t flags1, std::uint16_t track_flags, float total_time);
std::vector<model::Property> file_properties(std::uint32_t slot_count, std::uint32_t declared_size,
                                            std::size_t animation_count);

}  // namespace animdex::gnt_mot
