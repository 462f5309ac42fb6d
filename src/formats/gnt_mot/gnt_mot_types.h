#pragma once
// The GNT .mot container as it is on disc (see ../shared/formats/gnt-mot.md), kept
// faithful enough that the writer can rebuild GNTool-laid-out files byte for byte.
#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace animdex::gnt_mot {

inline constexpr std::uint32_t kMotHeaderSize = 0x10;   // MOT header, also stored at 0x08
inline constexpr std::uint32_t kGntaHeaderSize = 0x10;  // GNTA header, also stored at GNTA+0x04
inline constexpr std::uint32_t kBoneHeaderSize = 0x20;
inline constexpr double kFramesPerSecond = 60.0;        // key times are frame / 60
inline constexpr double kMaxSeconds = 1e9;             // larger times are refused (frame numbers stay exact)

// flags1 bits (GNTool): 0x0200 = coordinate block present, then 0x0002 = 4 x 16-bit
// upper halves of f32 per key, else 0x0004 = 4 x f32 per key.
inline constexpr std::uint16_t kFlagCoordinates = 0x0200;
inline constexpr std::uint16_t kFlagValues16 = 0x0002;
inline constexpr std::uint16_t kFlagValues32 = 0x0004;

// Track flag bits (TrackFlag.java, mot.md); 0x04, 0x10 and 0x80 are of unknown meaning.
inline constexpr std::uint16_t kTrackTranslate = 0x01;
inline constexpr std::uint16_t kTrackScale = 0x02;
inline constexpr std::uint16_t kTrackRotate = 0x08;
inline constexpr std::uint16_t kTrackEnabled = 0x20;
inline constexpr std::uint16_t kTrackDisabled = 0x40;

enum class CoordinateEncoding { none, bf16, f32 };

// Which encoding flags1 announces; nullopt when 0x0200 is set without 0x0002/0x0004.
// Inline: every bone header asks, twice on the index's path.
inline std::optional<CoordinateEncoding> encoding_from_flags(std::uint16_t flags1) {
  if ((flags1 & kFlagCoordinates) == 0) return CoordinateEncoding::none;
  if (flags1 & kFlagValues16) return CoordinateEncoding::bf16;
  if (flags1 & kFlagValues32) return CoordinateEncoding::f32;
  return std::nullopt;
}

struct BoneAnimation {
  std::uint16_t flags1 = 0;
  std::uint16_t track_flags = 0;
  std::uint16_t bone_id = 0;            // 0xFFFF ("root?") is kept as is
  float total_time = 0.0F;              // seconds; time of the last key in GNTool-made files
  std::uint32_t time_offset = 0;        // as stored, relative to the GNTA start
  std::uint32_t coordinates_offset = 0; // as stored, relative to the GNTA start; 0 for time-only
  std::vector<float> key_times;         // seconds (frame / 60); key count = key_times.size()
  // Raw coordinate words per key (x, y, z, w): the 16-bit upper halves for bf16,
  // the f32 bit patterns for f32; empty for time-only bones.
  std::vector<std::array<std::uint32_t, 4>> coordinate_words;
  std::vector<std::byte> junk_after_times;        // padding bytes to 16 as found (often non-zero)
  std::vector<std::byte> junk_after_coordinates;  // same, after the coordinate block

  std::size_t key_count() const noexcept { return key_times.size(); }
};

struct GntAnimation {
  std::uint32_t animation_id = 0;  // = slot index in the MOT table
  std::uint32_t file_offset = 0;   // where it was found (0 for models built in code)
  std::uint16_t header_word0 = 0;  // u16 at GNTA+0, zero in files
  float play_speed = 0.0F;
  float end_time = 0.0F;           // seconds
  std::vector<BoneAnimation> bones;
};

struct MotFile {
  std::uint32_t slot_count = 0;           // N, including empty slots
  std::uint32_t declared_size = 0;        // u32 at 0x0C
  std::vector<std::byte> table_padding;   // bytes between the slot table and align16(0x10+4N)
  std::vector<GntAnimation> animations;   // non-empty slots, ascending animation_id
};

// Decoding helpers (format note, "16-bit coordinate encoding" and "Semantics").
// The decoders are inline: the parser runs them per coordinate.
inline float decode_bf16(std::uint16_t upper_half) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(upper_half) << 16);
}
std::uint16_t encode_bf16(float value);  // truncation, as GNTool does
inline float decode_coordinate(std::uint32_t word, CoordinateEncoding encoding) {
  return encoding == CoordinateEncoding::bf16 ? decode_bf16(static_cast<std::uint16_t>(word))
                                              : std::bit_cast<float>(word);
}
std::uint32_t encode_coordinate(float value, CoordinateEncoding encoding);
// round(t * 60), halves away from zero as std::llround, inline and without its libm call (run per key):
// a float32 times 60 is exact in a double, and so is adding 0.5 where it could change the integer part.
// Precondition: `seconds` finite and within kMaxSeconds (read_time's rule; the cast assumes it).
inline std::int64_t seconds_to_frame(float seconds) {
  assert(std::isfinite(seconds) && std::fabs(seconds) <= kMaxSeconds);
  const double frames = static_cast<double>(seconds) * kFramesPerSecond;
  return static_cast<std::int64_t>(frames + std::copysign(0.5, frames));
}

constexpr std::uint64_t align16(std::uint64_t value) { return (value + 15) & ~std::uint64_t{15}; }

}  // namespace animdex::gnt_mot
