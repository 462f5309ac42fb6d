#pragma once
// GNT animations for the tests, from a few numbers.
#include <cstdint>
#include <vector>

#include "formats/gnt_mot/gnt_mot_builder.h"

namespace animdex::test {

// A rotation track on `bone` with keys at `frames`; key k holds (base, -base, 0.25k, 45k).
inline gnt_mot::BoneSpec rotation_track(std::uint16_t bone, std::vector<std::int64_t> frames, float base,
                                        gnt_mot::CoordinateEncoding encoding = gnt_mot::CoordinateEncoding::bf16,
                                        std::byte junk_fill = std::byte{0}) {
  gnt_mot::BoneSpec spec{bone, gnt_mot::kTrackRotate | gnt_mot::kTrackEnabled, encoding, std::move(frames), {}, junk_fill};
  for (std::size_t k = 0; k < spec.key_frames.size(); ++k)
    spec.values.push_back({base, -base, 0.25F * static_cast<float>(k), 45.0F * static_cast<float>(k)});
  return spec;
}

// An animation of `frames` frames (play speed 0.125) made of the given tracks.
inline gnt_mot::GntAnimation gnt_animation(std::uint32_t id, std::int64_t frames,
                                           const std::vector<gnt_mot::BoneSpec>& bones) {
  gnt_mot::GntAnimation gnta;
  gnta.animation_id = id;
  gnta.play_speed = 0.125F;
  gnta.end_time = gnt_mot::frame_to_seconds(frames);
  for (const auto& bone : bones) gnta.bones.push_back(gnt_mot::make_bone(bone));
  return gnta;
}

}  // namespace animdex::test
