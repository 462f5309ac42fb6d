#include "formats/kh2/kh2_motion_writer.h"

#include "core/byte_writer.h"

namespace animdex::kh2 {

namespace {

void write_range(ByteWriter& out, const FrameRange& range) {
  out.f32(range.frame_start, LE);
  out.f32(range.frame_end, LE);
  out.f32(range.fps, LE);
  out.f32(range.frame_return, LE);
}

std::uint32_t relative(const ByteWriter& out) { return static_cast<std::uint32_t>(out.size() - kMotionBase); }

void pad4(ByteWriter& out) {
  while (out.size() % 4 != 0) out.u8(0);
}

void write_raw(ByteWriter& out, const RawMotion& raw) {
  out.u32(static_cast<std::uint32_t>(raw.bone_count), LE);
  out.zeros(12);
  out.u32(static_cast<std::uint32_t>(raw.frame_count), LE);
  out.u32(static_cast<std::uint32_t>(raw.total_frame_count), LE);
  const std::size_t offsets_at = out.size();
  out.zeros(8);
  out.zeros(32);  // bounding box
  write_range(out, raw.range);
  out.patch_u32(offsets_at, relative(out), LE);
  for (const auto& matrix : raw.matrices)
    for (float value : matrix) out.f32(value, LE);
  out.patch_u32(offsets_at + 4, relative(out), LE);
  for (std::size_t m = 0; m < raw.extra_matrix_count; ++m)
    for (int e = 0; e < 16; ++e) out.f32(e % 5 == 0 ? 1.0f : 0.0f, LE);
}

void write_curves(ByteWriter& out, const std::vector<FCurve>& curves) {
  for (const auto& curve : curves) {
    out.u16(static_cast<std::uint16_t>(curve.joint), LE);
    out.u8(curve.packed);
    out.u8(curve.key_count);
    out.u16(static_cast<std::uint16_t>(curve.first_key), LE);
  }
  pad4(out);
}

void write_floats(ByteWriter& out, const std::vector<float>& values) {
  for (float value : values) out.f32(value, LE);
}

void write_interpolated(ByteWriter& out, const InterpolatedMotion& body) {
  const std::size_t header = out.size();
  out.u16(static_cast<std::uint16_t>(body.bone_count), LE);
  out.u16(static_cast<std::uint16_t>(body.total_bone_count), LE);
  out.u32(static_cast<std::uint32_t>(body.frame_count), LE);
  out.zeros(0x58);  // offsets and counts, patched below
  out.zeros(32);    // bounding box
  write_range(out, body.range);
  out.zeros(16);    // external effector offset, reserved
  const auto set = [&](std::size_t field, std::uint32_t value) { out.patch_u32(header + field, value, LE); };
  set(0x08, relative(out));
  out.zeros(0x40 * static_cast<std::size_t>(body.total_bone_count - body.bone_count));
  set(0x0C, relative(out));
  for (int joint = 0; joint < body.total_bone_count; ++joint) {
    out.u16(static_cast<std::uint16_t>(joint), LE);
    out.u16(0, LE);
  }
  set(0x10, static_cast<std::uint32_t>(body.key_times.size()));
  set(0x14, relative(out));
  set(0x18, static_cast<std::uint32_t>(body.initial_poses.size()));
  for (const auto& pose : body.initial_poses) {
    out.u16(static_cast<std::uint16_t>(pose.bone), LE);
    out.u16(static_cast<std::uint16_t>(pose.channel), LE);
    out.f32(pose.value, LE);
  }
  set(0x1C, relative(out));  // root position: none
  set(0x20, relative(out));
  set(0x24, static_cast<std::uint32_t>(body.forward_curves.size()));
  write_curves(out, body.forward_curves);
  set(0x28, relative(out));
  set(0x2C, static_cast<std::uint32_t>(body.inverse_curves.size()));
  write_curves(out, body.inverse_curves);
  set(0x30, relative(out));
  for (const auto& key : body.keys) {
    out.u16(static_cast<std::uint16_t>((key.time_index << 2) | static_cast<std::uint16_t>(key.interpolation)), LE);
    out.u16(static_cast<std::uint16_t>(key.value_index), LE);
    out.u16(static_cast<std::uint16_t>(key.in_tangent_index), LE);
    out.u16(static_cast<std::uint16_t>(key.out_tangent_index), LE);
  }
  set(0x34, relative(out));
  write_floats(out, body.key_times);
  set(0x38, relative(out));
  write_floats(out, body.values);
  set(0x3C, relative(out));
  write_floats(out, body.tangents);
  for (std::size_t field = 0x40; field <= 0x5C; field += 4)  // constraints, limiters, expressions: none
    if (field != 0x44 && field != 0x54 && field != 0x5C) set(field, relative(out));
}

}  // namespace

std::vector<std::byte> write_motion(const Motion& motion) {
  ByteWriter out;
  out.zeros(kMotionBase);
  out.u32(static_cast<std::uint32_t>(motion.kind), LE);
  out.u32(static_cast<std::uint32_t>(motion.subtype), LE);
  out.zeros(8);  // extra offset and size, patched at the end
  if (motion.raw) write_raw(out, *motion.raw);
  else if (motion.interpolated) write_interpolated(out, *motion.interpolated);
  out.patch_u32(kMotionBase + 8, relative(out), LE);
  return out.take();
}

std::vector<std::byte> write_anb(const std::vector<std::byte>& motion_bytes, const std::vector<std::byte>& trigger_bytes,
                                 const std::string& name) {
  return write_bar({{kTypeMotion, 0, name, motion_bytes, -1}, {kTypeMotionTriggers, 0, name, trigger_bytes, -1}});
}

}  // namespace animdex::kh2
