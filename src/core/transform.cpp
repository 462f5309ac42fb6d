#include "core/transform.h"

#include <cmath>

namespace animdex {

namespace {

double& at(Matrix4& m, int row, int column) { return m[static_cast<std::size_t>(column * 4 + row)]; }
double at(const Matrix4& m, int row, int column) { return m[static_cast<std::size_t>(column * 4 + row)]; }

double determinant3(const Matrix4& m) {
  return at(m, 0, 0) * (at(m, 1, 1) * at(m, 2, 2) - at(m, 1, 2) * at(m, 2, 1)) -
         at(m, 0, 1) * (at(m, 1, 0) * at(m, 2, 2) - at(m, 1, 2) * at(m, 2, 0)) +
         at(m, 0, 2) * (at(m, 1, 0) * at(m, 2, 1) - at(m, 1, 1) * at(m, 2, 0));
}

}  // namespace

Matrix4 matrix_of(const Transform& t) {
  const auto [x, y, z, w] = t.rotation;
  const double rotation[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                                 {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                                 {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
  Matrix4 m = kIdentity4;
  for (int row = 0; row < 3; ++row) {
    for (int column = 0; column < 3; ++column) at(m, row, column) = rotation[row][column] * t.scale[column];
    at(m, row, 3) = t.translation[row];
  }
  return m;
}

Matrix4 multiply(const Matrix4& a, const Matrix4& b) {
  Matrix4 m{};
  for (int row = 0; row < 4; ++row)
    for (int column = 0; column < 4; ++column) {
      double sum = 0;
      for (int k = 0; k < 4; ++k) sum += at(a, row, k) * at(b, k, column);
      at(m, row, column) = sum;
    }
  return m;
}

bool invertible(const Matrix4& m) {
  const double det = determinant3(m);
  return std::isfinite(det) && std::abs(det) > 1e-12;
}

Matrix4 inverse_affine(const Matrix4& m) {
  const double inv_det = 1.0 / determinant3(m);
  Matrix4 r = kIdentity4;
  for (int row = 0; row < 3; ++row)
    for (int column = 0; column < 3; ++column) {
      // The cofactor of (column, row): the adjugate's (row, column).
      const int r0 = (column + 1) % 3, r1 = (column + 2) % 3, c0 = (row + 1) % 3, c1 = (row + 2) % 3;
      at(r, row, column) = (at(m, r0, c0) * at(m, r1, c1) - at(m, r0, c1) * at(m, r1, c0)) * inv_det;
    }
  for (int row = 0; row < 3; ++row)
    at(r, row, 3) = -(at(r, row, 0) * at(m, 0, 3) + at(r, row, 1) * at(m, 1, 3) + at(r, row, 2) * at(m, 2, 3));
  return r;
}

Transform decompose_affine(const Matrix4& m) {
  Transform t;
  for (int row = 0; row < 3; ++row) t.translation[static_cast<std::size_t>(row)] = at(m, row, 3);
  for (int column = 0; column < 3; ++column)
    t.scale[static_cast<std::size_t>(column)] =
        std::sqrt(at(m, 0, column) * at(m, 0, column) + at(m, 1, column) * at(m, 1, column) +
                  at(m, 2, column) * at(m, 2, column));
  if (determinant3(m) < 0) t.scale[0] = -t.scale[0];
  // Row-vector rows are the column-vector matrix's columns.
  Matrix3 rows{};
  for (int column = 0; column < 3; ++column)
    for (int row = 0; row < 3; ++row) {
      const double s = t.scale[static_cast<std::size_t>(column)];
      rows[static_cast<std::size_t>(column * 3 + row)] = s == 0 ? (row == column ? 1.0 : 0.0) : at(m, row, column) / s;
    }
  t.rotation = quaternion_of_rows(rows);
  return t;
}

Quaternion multiply(const Quaternion& a, const Quaternion& b) {
  const auto [ax, ay, az, aw] = a;
  const auto [bx, by, bz, bw] = b;
  return {aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
          aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz};
}

Quaternion normalized(const Quaternion& q) {
  const double length = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(length > 0)) return {0, 0, 0, 1};
  return {q[0] / length, q[1] / length, q[2] / length, q[3] / length};
}

Quaternion axis_rotation(int axis, double radians) {
  Quaternion q{0, 0, 0, std::cos(radians / 2)};
  q[static_cast<std::size_t>(axis)] = std::sin(radians / 2);
  return q;
}

Quaternion quaternion_of_rows(const Matrix3& rows) { return normalized(quaternion_from_rows(rows)); }

Quaternion nearer(const Quaternion& q, const Quaternion& previous) {
  const double dot = q[0] * previous[0] + q[1] * previous[1] + q[2] * previous[2] + q[3] * previous[3];
  if (dot >= 0) return q;
  return {-q[0], -q[1], -q[2], -q[3]};
}

bool finite(const Transform& t) {
  for (const double v : t.translation) if (!std::isfinite(v)) return false;
  for (const double v : t.rotation) if (!std::isfinite(v)) return false;
  for (const double v : t.scale) if (!std::isfinite(v)) return false;
  return true;
}

}  // namespace animdex
