#pragma once
// Joint transforms as glTF states them (column vectors, right-handed): translation, a unit
// quaternion (x, y, z, w) and scale, composed as T * R * S; 4x4 matrices column-major (element
// row r, column c at c * 4 + r), the layout glTF and the KH2 row-vector matrices share.
#include <array>

#include "core/rotation.h"

namespace animdex {

using Vector3 = std::array<double, 3>;
using Quaternion = std::array<double, 4>;  // x, y, z, w
using Matrix4 = std::array<double, 16>;    // column-major

struct Transform {
  Vector3 translation{0, 0, 0};
  Quaternion rotation{0, 0, 0, 1};
  Vector3 scale{1, 1, 1};
};

inline constexpr Matrix4 kIdentity4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

Matrix4 matrix_of(const Transform& transform);
Matrix4 multiply(const Matrix4& a, const Matrix4& b);  // a * b: b applies first
// The inverse of an affine matrix (last row 0 0 0 1); identity-free callers check invertible().
Matrix4 inverse_affine(const Matrix4& m);
bool invertible(const Matrix4& m);
// T, R and S of an affine matrix: S the columns' lengths (the first negated for a reflection),
// R from the normalised columns. Shear (non-uniform scale under a rotated parent) is lost.
Transform decompose_affine(const Matrix4& m);

Quaternion multiply(const Quaternion& a, const Quaternion& b);  // a * b: b rotates first
Quaternion normalized(const Quaternion& q);
// A rotation of `radians` about axis 0 (x), 1 (y) or 2 (z).
Quaternion axis_rotation(int axis, double radians);
// The rotation of a DS / System.Numerics row-major, row-vector matrix (core/rotation.h), normalised.
Quaternion quaternion_of_rows(const Matrix3& rows);
// `q` or `-q`, whichever is nearer `previous`, so that interpolating between them takes the short way.
Quaternion nearer(const Quaternion& q, const Quaternion& previous);

bool finite(const Transform& transform);

}  // namespace animdex
