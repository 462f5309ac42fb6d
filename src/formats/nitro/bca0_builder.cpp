#include "formats/nitro/bca0_builder.h"

#include <algorithm>
#include <cmath>

namespace animdex::nsbca {

std::int32_t to_fx(double value) { return static_cast<std::int32_t>(std::lround(value * 4096.0)); }

AxisChannel identity_axis() { return {}; }

AxisChannel base_axis() {
  AxisChannel axis;
  axis.source = Source::base;
  return axis;
}

AxisChannel constant_axis(double value, bool is_scale) {
  AxisChannel axis;
  axis.source = Source::constant;
  axis.constant = to_fx(value);
  if (is_scale) axis.constant_inverse = value != 0 ? to_fx(1.0 / value) : 0;
  return axis;
}

namespace {
std::uint32_t last_interp_for(int frame_count, int step) {
  return step == 1 ? static_cast<std::uint32_t>(frame_count)
                   : static_cast<std::uint32_t>((frame_count - 1) / step * step);
}
}  // namespace

AxisChannel animated_axis(const std::vector<double>& values, int frame_count, int step, bool fx16, bool is_scale) {
  AxisChannel axis;
  axis.source = Source::animated;
  axis.info = TrackInfo::make(step, fx16, last_interp_for(frame_count, step));
  for (double value : values) {
    axis.samples.push_back(to_fx(value));
    if (is_scale) axis.inverses.push_back(value != 0 ? to_fx(1.0 / value) : 0);
  }
  return axis;
}

RotationChannel identity_rotation() { return {}; }

RotationChannel base_rotation() {
  RotationChannel rotation;
  rotation.source = Source::base;
  return rotation;
}

RotationChannel constant_rotation(std::uint16_t index) {
  RotationChannel rotation;
  rotation.source = Source::constant;
  rotation.constant_word = index;
  return rotation;
}

RotationChannel animated_rotation(const std::vector<std::uint16_t>& indices, int frame_count, int step) {
  RotationChannel rotation;
  rotation.source = Source::animated;
  rotation.info = TrackInfo::make(step, false, last_interp_for(frame_count, step));
  rotation.indices = indices;
  return rotation;
}

Rot5Entry encode_rot5(const Matrix3& rows) {
  // 13-bit signed fixed point holds -4096..4095: 1.0 is stored as 4095/4096.
  const auto q = [](double value) {
    return static_cast<std::uint16_t>(std::clamp(to_fx(value), -4096, 4095) & 0x1FFF);
  };
  const std::uint16_t e = q(rows[5]);  // row 1, z: split over the low 3 bits of the five words
  Rot5Entry entry;
  entry.d[0] = static_cast<std::uint16_t>((q(rows[0]) << 3) | ((e >> 9) & 7));
  entry.d[1] = static_cast<std::uint16_t>((q(rows[1]) << 3) | ((e >> 6) & 7));
  entry.d[2] = static_cast<std::uint16_t>((q(rows[2]) << 3) | ((e >> 3) & 7));
  entry.d[3] = static_cast<std::uint16_t>((q(rows[3]) << 3) | (e & 7));
  entry.d[4] = static_cast<std::uint16_t>((q(rows[4]) << 3) | ((e >> 12) & 1));
  return entry;
}

Rot3Entry encode_rot3(int pivot, bool pivot_negative, double a, double b, bool c_negative, bool d_negative) {
  Rot3Entry entry;
  entry.info = static_cast<std::uint16_t>((pivot & 0x0F) | (pivot_negative ? 0x10 : 0) | (c_negative ? 0x20 : 0) |
                                          (d_negative ? 0x40 : 0));
  entry.a = static_cast<std::int16_t>(to_fx(a));
  entry.b = static_cast<std::int16_t>(to_fx(b));
  return entry;
}

Matrix3 rotation_about_z(double degrees) {
  const double radians = degrees * 3.14159265358979323846 / 180.0;
  const double c = std::cos(radians), s = std::sin(radians);
  return {c, s, 0, -s, c, 0, 0, 0, 1};  // row vectors: x maps to (c, s, 0)
}

}  // namespace animdex::nsbca
