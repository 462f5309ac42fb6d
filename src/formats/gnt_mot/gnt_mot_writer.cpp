#include "formats/gnt_mot/gnt_mot_writer.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <stdexcept>

#include "core/byte_writer.h"

namespace animdex::gnt_mot {

namespace {

std::uint64_t coordinate_bytes(const BoneAnimation& bone) {
  switch (encoding_from_flags(bone.flags1).value_or(CoordinateEncoding::none)) {
    case CoordinateEncoding::bf16: return 8 * bone.key_count();
    case CoordinateEncoding::f32: return 16 * bone.key_count();
    case CoordinateEncoding::none: return 0;
  }
  return 0;
}

// Padding up to the next 16-byte boundary: the stored junk when it has the right length.
void pad(ByteWriter& out, const std::vector<std::byte>& stored) {
  const std::size_t needed = align16(out.size()) - out.size();
  if (stored.size() == needed) out.append(stored);
  else out.zeros(needed);
}

}  // namespace

std::uint64_t gnta_size(const GntAnimation& animation) {
  std::uint64_t size = kGntaHeaderSize + kBoneHeaderSize * animation.bones.size();
  for (const auto& bone : animation.bones) size += align16(4 * bone.key_count()) + align16(coordinate_bytes(bone));
  return size;
}

std::optional<std::string> validate_for_writing(const MotFile& mot) {
  if (mot.slot_count == 0) return "slot_count must be at least 1";
  std::set<std::uint32_t> ids;
  for (const auto& animation : mot.animations) {
    if (animation.animation_id >= mot.slot_count)
      return fmt::format("animation ID {} is outside the {} slots", animation.animation_id, mot.slot_count);
    if (!ids.insert(animation.animation_id).second)
      return fmt::format("animation ID {} appears twice", animation.animation_id);
    if (animation.bones.size() > 0xFFFF) return fmt::format("animation {} has more than 65535 bones", animation.animation_id);
    for (const auto& bone : animation.bones) {
      if (bone.key_count() > 0xFFFF) return fmt::format("bone {} has more than 65535 keys", bone.bone_id);
      const auto encoding = encoding_from_flags(bone.flags1);
      if (!encoding) return fmt::format("bone {} flags1 0x{:04X} names no coordinate encoding", bone.bone_id, bone.flags1);
      const std::size_t expected = *encoding == CoordinateEncoding::none ? 0 : bone.key_count();
      if (bone.coordinate_words.size() != expected)
        return fmt::format("bone {} has {} coordinate keys for {} key times", bone.bone_id,
                           bone.coordinate_words.size(), bone.key_count());
    }
  }
  return std::nullopt;
}

std::vector<std::byte> write_mot(const MotFile& mot) {
  if (auto problem = validate_for_writing(mot)) throw std::invalid_argument(*problem);

  std::vector<const GntAnimation*> descending;
  for (const auto& animation : mot.animations) descending.push_back(&animation);
  std::sort(descending.begin(), descending.end(),
            [](const GntAnimation* a, const GntAnimation* b) { return a->animation_id > b->animation_id; });

  std::vector<std::uint32_t> offsets(mot.slot_count, 0);
  std::uint64_t position = align16(kMotHeaderSize + 4ULL * mot.slot_count);
  for (const auto* animation : descending) {
    offsets[animation->animation_id] = static_cast<std::uint32_t>(position);
    position += gnta_size(*animation);
  }

  ByteWriter out;
  out.u32(0, BE);
  out.u32(mot.slot_count, BE);
  out.u32(kMotHeaderSize, BE);
  out.u32(static_cast<std::uint32_t>(position), BE);
  for (auto offset : offsets) out.u32(offset, BE);
  pad(out, mot.table_padding);

  for (const auto* animation : descending) {
    const std::size_t gnta_start = out.size();
    out.u16(animation->header_word0, BE);
    out.u16(static_cast<std::uint16_t>(animation->bones.size()), BE);
    out.u32(kGntaHeaderSize, BE);
    out.f32(animation->play_speed, BE);
    out.f32(animation->end_time, BE);

    std::uint64_t data = kGntaHeaderSize + kBoneHeaderSize * animation->bones.size();
    for (const auto& bone : animation->bones) {
      const std::uint64_t time_offset = data;
      const std::uint64_t coords = coordinate_bytes(bone);
      // A coordinate bone points past its padded times even with zero keys (found by fuzzing).
      const bool has_coordinates =
          encoding_from_flags(bone.flags1).value_or(CoordinateEncoding::none) != CoordinateEncoding::none;
      const std::uint64_t coordinates_offset = has_coordinates ? align16(time_offset + 4 * bone.key_count()) : 0;
      data = align16(time_offset + 4 * bone.key_count()) + align16(coords);
      out.u16(bone.flags1, BE);
      out.u16(bone.track_flags, BE);
      out.u16(bone.bone_id, BE);
      out.u16(static_cast<std::uint16_t>(bone.key_count()), BE);
      out.f32(bone.total_time, BE);
      out.u32(0, BE);
      out.u32(static_cast<std::uint32_t>(time_offset), BE);
      out.u32(static_cast<std::uint32_t>(coordinates_offset), BE);
      out.u32(0, BE);
      out.u32(0, BE);
    }
    for (const auto& bone : animation->bones) {
      for (float time : bone.key_times) out.f32(time, BE);
      pad(out, bone.junk_after_times);
      const auto encoding = encoding_from_flags(bone.flags1).value_or(CoordinateEncoding::none);
      if (encoding == CoordinateEncoding::none) continue;
      for (const auto& words : bone.coordinate_words)
        for (auto word : words) {
          if (encoding == CoordinateEncoding::bf16) out.u16(static_cast<std::uint16_t>(word), BE);
          else out.u32(word, BE);
        }
      pad(out, bone.junk_after_coordinates);
    }
    if (out.size() - gnta_start != gnta_size(*animation))
      throw std::logic_error("write_mot: GNTA layout disagrees with gnta_size");
  }
  return out.take();
}

}  // namespace animdex::gnt_mot
