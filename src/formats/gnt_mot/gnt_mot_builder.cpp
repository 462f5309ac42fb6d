#include "formats/gnt_mot/gnt_mot_builder.h"

namespace animdex::gnt_mot {

float frame_to_seconds(std::int64_t frame) { return static_cast<float>(frame) / static_cast<float>(kFramesPerSecond); }

BoneAnimation make_bone(const BoneSpec& spec) {
  BoneAnimation bone;
  bone.bone_id = spec.bone_id;
  bone.track_flags = spec.track_flags;
  switch (spec.encoding) {
    case CoordinateEncoding::bf16: bone.flags1 = kFlagCoordinates | kFlagValues16; break;
    case CoordinateEncoding::f32: bone.flags1 = kFlagCoordinates | kFlagValues32; break;
    case CoordinateEncoding::none: bone.flags1 = 0; break;
  }
  for (auto frame : spec.key_frames) bone.key_times.push_back(frame_to_seconds(frame));
  bone.total_time = bone.key_times.empty() ? 0.0F : bone.key_times.back();
  const std::size_t time_bytes = 4 * bone.key_count();
  bone.junk_after_times.assign(align16(time_bytes) - time_bytes, spec.junk_fill);
  if (spec.encoding == CoordinateEncoding::none) return bone;
  for (const auto& value : spec.values) {
    std::array<std::uint32_t, 4> words{};
    for (std::size_t c = 0; c < 4; ++c) words[c] = encode_coordinate(value[c], spec.encoding);
    bone.coordinate_words.push_back(words);
  }
  const std::size_t coordinate_bytes = (spec.encoding == CoordinateEncoding::bf16 ? 8 : 16) * bone.key_count();
  bone.junk_after_coordinates.assign(align16(coordinate_bytes) - coordinate_bytes, spec.junk_fill);
  return bone;
}

}  // namespace animdex::gnt_mot
