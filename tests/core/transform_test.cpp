// Joint transforms: composing T * R * S, taking it apart again, inverting, and the quaternions of
// the DS / System.Numerics row-vector matrices.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "core/transform.h"

using namespace animdex;

namespace {

void check_near(const Matrix4& a, const Matrix4& b, double margin = 1e-12) {
  for (std::size_t i = 0; i < 16; ++i) CHECK(a[i] == Approx(b[i]).margin(margin));
}

}  // namespace

TEST_CASE("a transform composes as T * R * S and comes apart into the same parts", "[core][transform]") {
  const Transform t{{1, 2, 3}, normalized({0.1, 0.2, 0.3, 0.9}), {2, 3, 4}};
  const auto m = matrix_of(t);
  // The translation is the last column; a point on x is scaled, then rotated, then moved.
  CHECK(m[12] == 1);
  CHECK(m[13] == 2);
  CHECK(m[14] == 3);
  const auto back = decompose_affine(m);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(back.translation[i] == Approx(t.translation[i]));
    CHECK(back.scale[i] == Approx(t.scale[i]));
  }
  const auto q = nearer(back.rotation, t.rotation);
  for (std::size_t i = 0; i < 4; ++i) CHECK(q[i] == Approx(t.rotation[i]));
}

TEST_CASE("an affine matrix times its inverse is the identity", "[core][transform]") {
  const auto m = matrix_of({{5, -1, 2}, normalized({0.3, -0.2, 0.5, 0.7}), {1, 2, 0.5}});
  REQUIRE(invertible(m));
  check_near(multiply(m, inverse_affine(m)), kIdentity4);
  check_near(multiply(inverse_affine(m), m), kIdentity4);
  CHECK_FALSE(invertible(matrix_of({{0, 0, 0}, {0, 0, 0, 1}, {1, 0, 1}})));
}

TEST_CASE("rotations about the axes and their product apply the right-hand factor first", "[core][transform]") {
  // 90 degrees about z takes x to y; about x, y to z.
  const auto z90 = matrix_of({{0, 0, 0}, axis_rotation(2, std::numbers::pi / 2), {1, 1, 1}});
  CHECK(z90[1] == Approx(1));  // column 0 (the image of x) is (0, 1, 0)
  const auto x_then_z = multiply(axis_rotation(2, std::numbers::pi / 2), axis_rotation(0, std::numbers::pi / 2));
  // y -> z (x rotation) -> z (z rotation leaves z): the image of y is z.
  const auto m = matrix_of({{0, 0, 0}, x_then_z, {1, 1, 1}});
  CHECK(m[4 + 2] == Approx(1));
}

TEST_CASE("a row-vector matrix gives the quaternion of its transpose, and nearer() keeps the short way",
          "[core][transform]") {
  // DS / System.Numerics rows: row i is the image of axis i. 90 degrees about z: x -> y, so row 0 is (0, 1, 0).
  const Matrix3 rows{0, 1, 0, -1, 0, 0, 0, 0, 1};
  const auto q = quaternion_of_rows(rows);
  const auto expected = axis_rotation(2, std::numbers::pi / 2);
  for (std::size_t i = 0; i < 4; ++i) CHECK(nearer(q, expected)[i] == Approx(expected[i]));
  const Quaternion flipped{-expected[0], -expected[1], -expected[2], -expected[3]};
  CHECK(nearer(flipped, expected) == expected);
}
