#include "formats/kh2/kh2_motion.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/byte_reader.h"
#include "core/parse_budget.h"
#include "model/animation.h"

namespace animdex::kh2 {

namespace {

// Header field positions (kh2-mset.md "Interpolated header"), absolute in the Motion entry.
constexpr std::uint64_t kInterp = kMotionBase + kCommonHeaderSize;  // 0xA0
constexpr std::uint64_t kRaw = kMotionBase + kCommonHeaderSize;

FrameRange read_range(const ByteReader& in, std::uint64_t at) {
  return {in.finite_f32(at, LE, "the frame start"), in.finite_f32(at + 4, LE, "the frame end"),
          in.finite_f32(at + 8, LE, "the FPS"), in.finite_f32(at + 12, LE, "the return frame")};
}

void require_fps(const FrameRange& range, std::uint64_t fps_at) {
  if (!(range.fps > 0) || !std::isfinite(range.fps)) fail_at(fps_at, "FPS > 0", fmt::format("{}", range.fps));
}

// A table at a header offset (relative to 0x90): checks count * element_size bytes lie in the motion.
std::uint64_t table_start(const ByteReader& in, std::uint64_t offset_field, std::int64_t count, std::uint64_t element,
                          std::string_view what) {
  const std::int32_t relative = in.i32(offset_field, LE);
  if (count < 0) fail_at(offset_field, fmt::format("{} count >= 0", what), std::to_string(count));
  if (count == 0) return 0;
  if (relative < 0) fail_at(offset_field, fmt::format("{} offset >= 0", what), std::to_string(relative));
  const std::uint64_t start = kMotionBase + static_cast<std::uint64_t>(relative);
  const std::uint64_t length = static_cast<std::uint64_t>(count) * element;
  if (!in.contains(start, length))
    fail_at(offset_field,
            fmt::format("{} ({} x {} bytes at {:#x}) within the motion's {} bytes", what, count, element, start,
                        in.size()),
            fmt::format("end {:#x}", start + length));
  return start;
}

// The element count of a table that runs from one header offset to the next (sizes are implicit).
std::int64_t span_count(const ByteReader& in, std::uint64_t begin_field, std::uint64_t end_field, std::uint64_t element,
                        std::string_view what) {
  const std::int32_t begin = in.i32(begin_field, LE);
  const std::int32_t end = in.i32(end_field, LE);
  if (end < begin)
    fail_at(end_field, fmt::format("{} to end at or after its start {:#x}", what, begin), fmt::format("{:#x}", end));
  return (static_cast<std::int64_t>(end) - begin) / static_cast<std::int64_t>(element);
}

RawMotion parse_raw(const ByteReader& in, Motion& motion) {
  in.require(kRaw, kRawHeaderSize, "raw motion header (0x50 bytes at 0xA0)");
  RawMotion raw;
  raw.bone_count = in.i32(kRaw, LE);
  raw.frame_count = in.i32(kRaw + 0x10, LE);
  raw.total_frame_count = in.i32(kRaw + 0x14, LE);
  raw.anim_matrix_offset = in.u32(kRaw + 0x18, LE);
  raw.pos_matrix_offset = in.u32(kRaw + 0x1C, LE);
  raw.range = read_range(in, kRaw + 0x40);
  if (raw.bone_count < 0) fail_at(kRaw, "bone count >= 0", std::to_string(raw.bone_count));
  if (raw.total_frame_count < 0)
    fail_at(kRaw + 0x14, "stored frame count >= 0", std::to_string(raw.total_frame_count));
  require_fps(raw.range, kRaw + 0x48);
  const std::int64_t matrix_count = static_cast<std::int64_t>(raw.bone_count) * raw.total_frame_count;
  const std::uint64_t start = table_start(in, kRaw + 0x18, matrix_count, 64, "animation matrices");
  // A matrix is 64 bytes in the file, the same held, and three model keys (T, R, S) once decomposed.
  charge_parse_memory(static_cast<std::uint64_t>(matrix_count), 64 + 3 * model::kBytesPerKey, kRaw + 0x14,
                      "raw motion frames");
  raw.matrices.resize(static_cast<std::size_t>(matrix_count));
  for (std::size_t m = 0; m < raw.matrices.size(); ++m)
    for (std::size_t e = 0; e < 16; ++e) raw.matrices[m][e] = in.finite_f32(start + 64 * m + 4 * e, LE, "a matrix element");
  const std::uint64_t pos_start = kMotionBase + std::uint64_t{raw.pos_matrix_offset};
  const std::uint64_t extra_start =
      motion.extra_offset > 0 ? kMotionBase + static_cast<std::uint64_t>(motion.extra_offset) : in.size();
  if (pos_start < extra_start && extra_start <= in.size()) raw.extra_matrix_count = (extra_start - pos_start) / 64;
  return raw;
}

// Fails at the table entry's own offset when a value a curve uses is NaN or infinite.
[[noreturn]] void fail_not_finite(const std::vector<float>& table, std::int64_t index, std::uint64_t table_at,
                                  std::string_view what) {
  fail_at(table_at + 4 * static_cast<std::uint64_t>(index), fmt::format("a finite float32 for {}", what),
          fmt::format("{}", table[static_cast<std::size_t>(index)]));
}

// Run per key reference: the test inline, the message only on failure.
inline void require_finite(const std::vector<float>& table, std::int64_t index, std::uint64_t table_at,
                           std::string_view what) {
  if (!std::isfinite(table[static_cast<std::size_t>(index)])) [[unlikely]]
    fail_not_finite(table, index, table_at, what);
}

void check_curve(const InterpolatedMotion& body, const FCurve& curve, std::uint64_t at, bool inverse,
                 std::int64_t value_count, std::int64_t tangent_count) {
  const std::int64_t helper_count = body.total_bone_count - body.bone_count;
  const std::int64_t joint_limit = inverse ? helper_count : body.total_bone_count;
  if (curve.joint < 0 || curve.joint >= joint_limit)
    fail_at(at, fmt::format("{} curve joint in 0..{}", inverse ? "inverse" : "forward", joint_limit - 1),
            std::to_string(curve.joint));
  if (curve.channel() > 8) fail_at(at + 2, "curve channel 0..8", std::to_string(curve.channel()));
  const std::int64_t key_end = static_cast<std::int64_t>(curve.first_key) + curve.key_count;
  if (curve.first_key < 0 || key_end > static_cast<std::int64_t>(body.keys.size()))
    fail_at(at + 4, fmt::format("curve keys {}..{} within the {}-entry key table", curve.first_key, key_end - 1,
                                body.keys.size()),
            std::to_string(curve.first_key));
  // Only keys a curve references are checked: real files hold unused table entries (NOTES.md).
  for (std::int64_t k = curve.first_key; k < key_end; ++k) {
    const auto& key = body.keys[static_cast<std::size_t>(k)];
    if (key.interpolation == Interpolation::unknown)
      fail_at(at, fmt::format("key {} interpolation 0 (constant), 1 (linear) or 2 (hermite)", k), "3");
    if (key.time_index >= body.key_time_count)
      fail_at(at, fmt::format("key {} time index < key time count {}", k, body.key_time_count),
              std::to_string(key.time_index));
    if (key.value_index < 0 || key.value_index >= value_count)
      fail_at(at, fmt::format("key {} value index in 0..{}", k, value_count - 1), std::to_string(key.value_index));
    // Only referenced entries must be numbers: unused table entries are never read (NOTES.md).
    require_finite(body.key_times, key.time_index, body.key_time_at, "a key time");
    require_finite(body.values, key.value_index, body.value_at, "a key value");
    // A curve's keys are in time order (the engine searches them in order; the model's rule).
    if (k > curve.first_key) {
      const float previous = body.key_times[body.keys[static_cast<std::size_t>(k - 1)].time_index];
      const float time = body.key_times[key.time_index];
      if (time < previous)
        fail_at(at, fmt::format("key {} at a time at or after the previous key's {} (keys in time order)", k, previous),
                fmt::format("{}", time));
    }
    if (key.interpolation != Interpolation::hermite) continue;
    for (const std::int16_t tangent : {key.in_tangent_index, key.out_tangent_index}) {
      if (tangent < 0 || tangent >= tangent_count)
        fail_at(at, fmt::format("key {} tangent index in 0..{}", k, tangent_count - 1), std::to_string(tangent));
      require_finite(body.tangents, tangent, body.tangent_at, "a key tangent");
    }
  }
}

std::vector<FCurve> read_curves(const ByteReader& in, std::uint64_t offset_field, std::uint64_t count_field,
                                std::string_view what, std::vector<std::uint64_t>& positions) {
  const std::int32_t count = in.i32(count_field, LE);
  const std::uint64_t start = table_start(in, offset_field, count, 6, what);
  std::vector<FCurve> curves(static_cast<std::size_t>(count));
  positions.resize(curves.size());
  for (std::size_t c = 0; c < curves.size(); ++c) {
    const std::uint64_t at = start + 6 * c;
    positions[c] = at;
    curves[c] = {in.i16(at, LE), in.u8(at + 2), in.u8(at + 3), in.i16(at + 4, LE)};
  }
  return curves;
}

std::vector<float> read_floats(const ByteReader& in, std::uint64_t offset_field, std::int64_t count,
                               std::string_view what, std::uint64_t& start) {
  start = table_start(in, offset_field, count, 4, what);
  std::vector<float> values(static_cast<std::size_t>(count));
  in.read_array(start, LE, std::span<float>(values));  // one run: table_start checked its extent
  return values;
}

// IK helper defaults and the Joint table: their sizes follow from the bone counts, so they must fit.
void read_joint_tables(const ByteReader& in, InterpolatedMotion& body) {
  const std::uint64_t helpers_at =
      table_start(in, kInterp + 0x08, body.total_bone_count - body.bone_count, 0x40, "IK helper table");
  body.helper_channels.resize(static_cast<std::size_t>(body.total_bone_count - body.bone_count));
  for (std::size_t h = 0; h < body.helper_channels.size(); ++h)
    for (std::size_t c = 0; c < 9; ++c)
      body.helper_channels[h][c] = in.f32(helpers_at + 0x40 * h + 0x10 * (1 + c / 3) + 4 * (c % 3), LE);
  const std::uint64_t joints_at = table_start(in, kInterp + 0x0C, body.total_bone_count, 4, "joint table");
  body.joints.resize(static_cast<std::size_t>(body.total_bone_count));
  for (std::size_t j = 0; j < body.joints.size(); ++j)
    body.joints[j] = {in.i16(joints_at + 4 * j, LE), in.u8(joints_at + 4 * j + 2)};
}

// The i16 at `field_at` of each record of a table whose extent no rule bounds: read when it lies
// inside the motion, else a warning (the curves do not depend on it).
std::vector<std::int16_t> optional_targets(const ByteReader& in, std::uint64_t offset_field, std::uint64_t count_field,
                                           std::uint64_t record_size, std::uint64_t field_at, std::string_view what,
                                           std::vector<std::string>& warnings) {
  const std::int64_t offset = in.i32(offset_field, LE), count = in.i32(count_field, LE);
  if (count == 0) return {};
  const auto start = static_cast<std::uint64_t>(offset) + kMotionBase;
  if (offset < 0 || count < 0 || !in.contains(start, static_cast<std::uint64_t>(count) * record_size)) {
    warnings.push_back(fmt::format("{} ({} records at {:#x}) is not inside the motion: its joints are not flagged",
                                   what, count, start));
    return {};
  }
  std::vector<std::int16_t> targets(static_cast<std::size_t>(count));
  for (std::size_t r = 0; r < targets.size(); ++r) targets[r] = in.i16(start + record_size * r + field_at, LE);
  return targets;
}

InterpolatedMotion parse_interpolated(const ByteReader& in) {
  in.require(kInterp, kInterpolatedHeaderSize, "interpolated motion header (0xA0 bytes at 0xA0)");
  InterpolatedMotion body;
  body.bone_count = in.i16(kInterp, LE);
  body.total_bone_count = in.i16(kInterp + 2, LE);
  body.frame_count = in.i32(kInterp + 4, LE);
  body.key_time_count = in.i32(kInterp + 0x10, LE);
  body.constraint_count = in.i32(kInterp + 0x44, LE);
  body.expression_count = in.i32(kInterp + 0x54, LE);
  body.range = read_range(in, kInterp + 0x80);
  if (body.bone_count < 0) fail_at(kInterp, "bone count >= 0", std::to_string(body.bone_count));
  if (body.bone_count > body.total_bone_count)
    fail_at(kInterp + 2, fmt::format("total bone count >= bone count {}", body.bone_count),
            std::to_string(body.total_bone_count));
  require_fps(body.range, kInterp + 0x88);

  read_joint_tables(in, body);
  const std::int32_t pose_count = in.i32(kInterp + 0x18, LE);
  const std::uint64_t pose_start = table_start(in, kInterp + 0x14, pose_count, 8, "initial pose table");
  body.initial_poses.resize(static_cast<std::size_t>(pose_count));
  for (std::size_t p = 0; p < body.initial_poses.size(); ++p) {
    const std::uint64_t at = pose_start + 8 * p;
    body.initial_poses[p] = {in.i16(at, LE), in.i16(at + 2, LE), in.finite_f32(at + 4, LE, "an initial pose value")};
  }

  const std::int64_t key_count = span_count(in, kInterp + 0x30, kInterp + 0x34, 8, "key table");
  const std::uint64_t key_start = table_start(in, kInterp + 0x30, key_count, 8, "key table");
  // Four 16-bit fields a key, read in one run (table_start checked the table's extent).
  std::vector<std::uint16_t> fields(4 * static_cast<std::size_t>(key_count));
  in.read_array(key_start, LE, std::span<std::uint16_t>(fields));
  body.keys.resize(static_cast<std::size_t>(key_count));
  for (std::size_t k = 0; k < body.keys.size(); ++k) {
    const std::uint16_t* key = fields.data() + 4 * k;
    body.keys[k] = {static_cast<Interpolation>(key[0] & 0x3), static_cast<std::uint16_t>(key[0] >> 2),
                    static_cast<std::int16_t>(key[1]), static_cast<std::int16_t>(key[2]),
                    static_cast<std::int16_t>(key[3])};
  }
  body.key_times = read_floats(in, kInterp + 0x34, body.key_time_count, "key time table", body.key_time_at);
  const std::int64_t value_count = span_count(in, kInterp + 0x38, kInterp + 0x3C, 4, "key value table");
  body.values = read_floats(in, kInterp + 0x38, value_count, "key value table", body.value_at);
  const std::int64_t tangent_count = span_count(in, kInterp + 0x3C, kInterp + 0x40, 4, "key tangent table");
  body.tangents = read_floats(in, kInterp + 0x3C, tangent_count, "key tangent table", body.tangent_at);

  std::vector<std::uint64_t> positions;
  std::int64_t referenced_keys = 0;
  const auto check_references = [&](const std::vector<FCurve>& curves, std::uint64_t count_field) {
    std::int64_t curve_keys = 0;
    for (const auto& curve : curves) curve_keys += curve.key_count;
    referenced_keys += curve_keys;
    // Each referenced key becomes a model key with its spline (a shape and two tangents).
    charge_parse_memory(static_cast<std::uint64_t>(std::max<std::int64_t>(curve_keys, 0)),
                        model::kBytesPerKey + 3 * sizeof(double), count_field, "curve keys");
    // Curves may share keys (interpolated.motion: 2,020 references to 1,983 keys); far more
    // references than keys only multiplies memory (resource bound, NOTES.md).
    const std::int64_t limit = 2 * static_cast<std::int64_t>(body.keys.size()) + 255;
    if (referenced_keys > limit)
      fail_at(count_field, fmt::format("curves referencing at most {} keys (twice the key table + 255)", limit),
              std::to_string(referenced_keys));
  };
  body.forward_curves = read_curves(in, kInterp + 0x20, kInterp + 0x24, "forward curve table", positions);
  check_references(body.forward_curves, kInterp + 0x24);
  for (std::size_t c = 0; c < body.forward_curves.size(); ++c)
    check_curve(body, body.forward_curves[c], positions[c], false, value_count, tangent_count);
  body.inverse_curves = read_curves(in, kInterp + 0x28, kInterp + 0x2C, "inverse curve table", positions);
  check_references(body.inverse_curves, kInterp + 0x2C);
  for (std::size_t c = 0; c < body.inverse_curves.size(); ++c)
    check_curve(body, body.inverse_curves[c], positions[c], true, value_count, tangent_count);
  return body;
}

}  // namespace

const char* channel_name(int channel) {
  static constexpr const char* kNames[] = {"Sx", "Sy", "Sz", "Rx", "Ry", "Rz", "Tx", "Ty", "Tz"};
  return channel >= 0 && channel < 9 ? kNames[channel] : "?";
}

Result<Motion> parse_motion(std::span<const std::byte> bytes) {
  return catch_parse_failure<Motion>([&] {
    const ByteReader in(bytes);
    in.require(0, kMotionBase + kCommonHeaderSize, "motion header (0x90 zero bytes + 0x10-byte common header)");
    Motion motion;
    for (std::uint64_t at = 0; at < kMotionBase; ++at)
      if (in.u8(at) != 0) {
        motion.warnings.push_back(fmt::format("non-zero byte at {:#x} in the 0x90-byte zero prefix", at));
        break;
      }
    const std::int32_t type = in.i32(kMotionBase, LE);
    if (type != 0 && type != 1) fail_at(kMotionBase, "motion type 0 (interpolated) or 1 (raw)", std::to_string(type));
    motion.kind = static_cast<MotionKind>(type);
    motion.subtype = in.i32(kMotionBase + 4, LE);
    motion.extra_offset = in.i32(kMotionBase + 8, LE);
    motion.extra_size = in.i32(kMotionBase + 12, LE);
    if (static_cast<std::int64_t>(kMotionBase) + motion.extra_offset != static_cast<std::int64_t>(bytes.size()))
      motion.warnings.push_back(fmt::format("extra data offset {:#x} + 0x90 is not the motion's length {:#x}",
                                            motion.extra_offset, bytes.size()));
    if (motion.kind == MotionKind::raw) motion.raw = parse_raw(in, motion);
    else {
      motion.interpolated = parse_interpolated(in);
      auto& body = *motion.interpolated;
      body.constraint_targets =
          optional_targets(in, kInterp + 0x40, kInterp + 0x44, 12, 2, "the constraint table", motion.warnings);
      body.expression_targets =
          optional_targets(in, kInterp + 0x50, kInterp + 0x54, 8, 0, "the expression table", motion.warnings);
    }
    return motion;
  });
}

}  // namespace animdex::kh2
