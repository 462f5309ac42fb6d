#include "core/rotation.h"

#include <cmath>

namespace animdex {

std::array<double, 4> quaternion_from_rows(const Matrix3& m) {
  const double m11 = m[0], m12 = m[1], m13 = m[2];
  const double m21 = m[3], m22 = m[4], m23 = m[5];
  const double m31 = m[6], m32 = m[7], m33 = m[8];
  const double trace = m11 + m22 + m33;
  if (trace > 0) {
    const double s = std::sqrt(trace + 1.0) * 2;
    return {(m23 - m32) / s, (m31 - m13) / s, (m12 - m21) / s, 0.25 * s};
  }
  if (m11 >= m22 && m11 >= m33) {
    const double s = std::sqrt(1.0 + m11 - m22 - m33) * 2;
    return {0.25 * s, (m12 + m21) / s, (m13 + m31) / s, (m23 - m32) / s};
  }
  if (m22 > m33) {
    const double s = std::sqrt(1.0 + m22 - m11 - m33) * 2;
    return {(m12 + m21) / s, 0.25 * s, (m23 + m32) / s, (m31 - m13) / s};
  }
  const double s = std::sqrt(1.0 + m33 - m11 - m22) * 2;
  return {(m13 + m31) / s, (m23 + m32) / s, 0.25 * s, (m12 - m21) / s};
}

}  // namespace animdex
