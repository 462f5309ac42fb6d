#pragma once
// KH2 Motion sub-file (kh2-mset.md "Motion sub-file"): 0x90 zero bytes, a common header, then a
// raw (baked matrices) or interpolated (curves) body. All in-file offsets are relative to 0x90.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"

namespace animdex::kh2 {

inline constexpr std::size_t kMotionBase = 0x90;
inline constexpr std::size_t kCommonHeaderSize = 0x10;
inline constexpr std::size_t kRawHeaderSize = 0x50;
inline constexpr std::size_t kInterpolatedHeaderSize = 0xA0;

enum class MotionKind { interpolated = 0, raw = 1 };

struct FrameRange {
  float frame_start = 0, frame_end = 0, fps = 0, frame_return = 0;
};

struct RawMotion {
  std::int32_t bone_count = 0;
  std::int32_t frame_count = 0;        // 60 fps frames per loop
  std::int32_t total_frame_count = 0;  // stored frames, at the motion's own fps
  std::uint32_t anim_matrix_offset = 0, pos_matrix_offset = 0;
  FrameRange range;
  // total_frame_count x bone_count row-major 4x4 matrices (System.Numerics layout: translation in 12..14).
  std::vector<std::array<float, 16>> matrices;
  std::size_t extra_matrix_count = 0;  // "position matrices" between pos_matrix_offset and the extra data
};

enum class Interpolation : std::uint8_t { constant = 0, linear = 1, hermite = 2, unknown = 3 };

struct CurveKey {
  Interpolation interpolation = Interpolation::constant;
  std::uint16_t time_index = 0;
  std::int16_t value_index = 0, in_tangent_index = 0, out_tangent_index = 0;
};

struct FCurve {
  std::int16_t joint = 0;      // forward: bone index; inverse: IK helper index from 0
  std::uint8_t packed = 0;     // bits 0-3 channel, 4-5 pre-cycle, 6-7 post-cycle
  std::uint8_t key_count = 0;
  std::int16_t first_key = 0;
  int channel() const { return packed & 0x0F; }
  int pre_cycle() const { return (packed >> 4) & 0x03; }
  int post_cycle() const { return (packed >> 6) & 0x03; }
};

struct InitialPose {
  std::int16_t bone = 0, channel = 0;
  float value = 0;
};

// A Joint-table entry (4 bytes): a joint (bone, or IK helper from BoneCount) and its flags; non-zero
// flags mark joints the game's joint stage changes after the curves (IK chains, kh2-mset.md).
struct JointEntry {
  std::int16_t joint = 0;
  std::uint8_t flags = 0;
};

struct InterpolatedMotion {
  std::int16_t bone_count = 0;
  std::int16_t total_bone_count = 0;  // bones + IK helpers
  std::int32_t frame_count = 0;       // 60 fps frames
  std::int32_t key_time_count = 0;
  std::int32_t constraint_count = 0, expression_count = 0;
  FrameRange range;
  std::vector<InitialPose> initial_poses;
  std::vector<FCurve> forward_curves, inverse_curves;
  std::vector<CurveKey> keys;  // the whole key table, including keys no curve uses
  std::vector<float> key_times, values, tangents;
  std::uint64_t key_time_at = 0, value_at = 0, tangent_at = 0;  // where those tables start (error offsets)
  // Each IK helper's default channels from its 0x40-byte record: scale, rotation, translation x/y/z
  // (the record's vec4s at +0x10, +0x20, +0x30), in channel order 0-8.
  std::vector<std::array<float, 9>> helper_channels;
  std::vector<JointEntry> joints;
  // The joints a constraint (12-byte records, constrained joint at +2) or an expression (8-byte
  // records, target joint at +0) changes after the curves. Read only when the table lies inside the
  // motion (kh2-mset.md gives no size rule; a warning says when it does not).
  std::vector<std::int16_t> constraint_targets, expression_targets;
};

struct Motion {
  MotionKind kind = MotionKind::interpolated;
  std::int32_t subtype = 0;  // 0 normal, 1 ignore scale
  std::int32_t extra_offset = 0, extra_size = 0;
  std::optional<RawMotion> raw;
  std::optional<InterpolatedMotion> interpolated;
  std::vector<std::string> warnings;
};

// Channel names by curve channel number (0-2 scale, 3-5 rotate, 6-8 translate).
const char* channel_name(int channel);

// Parses a whole Motion entry; offsets in errors are relative to the start of `bytes`.
Result<Motion> parse_motion(std::span<const std::byte> bytes);

}  // namespace animdex::kh2
