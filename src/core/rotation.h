#pragma once
// Rotation helpers shared by formats that store matrices (KH2 raw motions, NSBCA).
#include <array>

namespace animdex {

// Row-major 3x3 in the row-vector convention (v' = v * M), the layout of System.Numerics and of
// the Nintendo DS: row i is the image of axis i.
using Matrix3 = std::array<double, 9>;

// Unit quaternion (x, y, z, w) of a rotation matrix in that convention (System.Numerics
// Quaternion.CreateFromRotationMatrix). The matrix should be orthonormal; it is not re-checked.
std::array<double, 4> quaternion_from_rows(const Matrix3& m);

}  // namespace animdex
