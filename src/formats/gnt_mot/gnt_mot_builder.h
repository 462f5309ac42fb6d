#pragma once
// Builds BoneAnimation values from decoded numbers, for the sample dump and the tests.
#include <array>
#include <cstddef>
#include <vector>

#include "formats/gnt_mot/gnt_mot_types.h"

namespace animdex::gnt_mot {

struct BoneSpec {
  std::uint16_t bone_id = 0;
  std::uint16_t track_flags = kTrackRotate | kTrackEnabled;
  CoordinateEncoding encoding = CoordinateEncoding::bf16;
  std::vector<std::int64_t> key_frames;                 // frame numbers; times are frame / 60 as f32
  std::vector<std::array<float, 4>> values;             // x, y, z, w per key; ignored for `none`
  std::byte junk_fill{0};                               // padding byte to store (0: zeros)
};

// Encodes the values (bf16 by truncation, as GNTool does); total_time = time of the last key.
// Offsets are left at 0: write_mot lays the file out and computes them.
BoneAnimation make_bone(const BoneSpec& spec);

float frame_to_seconds(std::int64_t frame);

}  // namespace animdex::gnt_mot
