// The model's track containers (model/animation.h): KeyColumns and SplineColumns keep their columns
// in one buffer (model/word_columns.h); sized, grown, copied and moved, they keep every value.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "model/animation.h"

using namespace animdex::model;

TEST_CASE("key columns: sized, filled in place, grown by push_back, copied and moved", "[model]") {
  KeyColumns keys(3, KeyColumns::kFrame | KeyColumns::kX | KeyColumns::kW);
  REQUIRE(keys.size() == 3);
  CHECK(keys.y().empty());
  CHECK(keys.x()[2] == 0.0);  // zero-filled
  for (std::size_t k = 0; k < 3; ++k) {
    keys.time()[k] = 0.5 * static_cast<double>(k);
    keys.frame()[k] = static_cast<std::int64_t>(30 * k);
    keys.x()[k] = 1.0 + static_cast<double>(k);
    keys.w()[k] = -1.0 - static_cast<double>(k);
  }
  keys.push_back({1.5, 90, 4.0, std::nullopt, std::nullopt, -4.0});  // past the sized room: grows
  REQUIRE(keys.size() == 4);
  CHECK(keys[1].frame == 30);
  CHECK(keys[3].x == 4.0);
  CHECK(keys[2].w == -3.0);
  CHECK(keys.frame()[0] == 0);
  CHECK(keys.frame()[3] == 90);

  KeyColumns copy = keys;
  CHECK(copy == keys);
  copy.x()[0] = 9.0;
  CHECK(keys.x()[0] == 1.0);  // a copy owns its buffer
  CHECK_FALSE(copy == keys);

  KeyColumns moved = std::move(keys);
  CHECK(moved.size() == 4);
  CHECK(keys.empty());  // NOLINT(bugprone-use-after-move): a moved-from track is empty, by contract
  CHECK(keys.time().empty());
}

TEST_CASE("key columns: the first key pushed decides the columns, after reserve too", "[model]") {
  KeyColumns keys;
  keys.reserve(2);
  keys.push_back({0.0, std::nullopt, 1.0, 2.0, 3.0, std::nullopt});
  for (int k = 1; k < 9; ++k) keys.push_back({1.0 * k, std::nullopt, 1.0 * k, 2.0 * k, 3.0 * k, std::nullopt});
  CHECK(keys.size() == 9);
  CHECK(keys.columns() == KeyColumns::kXYZ);
  CHECK(keys.frame().empty());
  CHECK(keys[8].z == 24.0);
  CHECK(keys[0].y == 2.0);
  CHECK_THROWS_AS(keys.push_back({9.0, 1, 1.0, 1.0, 1.0, std::nullopt}), std::invalid_argument);
}

TEST_CASE("spline columns: parameters widen to the last non-zero one, sized columns fill in place", "[model]") {
  SplineColumns splines;
  splines.push_back({3, std::nullopt, {}});
  CHECK(splines.parameter_count() == 0);
  splines.push_back({1, std::nullopt, {0.25, -0.5, 0, 0, 0, 0}});
  CHECK(splines.parameter_count() == 2);
  splines.push_back({0, std::nullopt, {0, 0, 0, 0, 0, 6.0}});
  REQUIRE(splines.parameter_count() == 6);
  CHECK(splines.parameter(0)[0] == 0.0);  // widened columns are zero for the earlier keys
  CHECK(splines.parameter(1)[1] == -0.5);
  CHECK(splines[2].params[5] == 6.0);
  CHECK(splines[1].shape == 1);
  CHECK_FALSE(splines[0].linear_flag.has_value());
  CHECK(splines.linear_flag().empty());

  // A -0.0 parameter widens the columns too: it is kept as the file has it, sign and all.
  SplineColumns signed_zero;
  signed_zero.push_back({1, std::nullopt, {0, 0, -0.0, 0, 0, 0}});
  REQUIRE(signed_zero.parameter_count() == 3);
  CHECK(std::signbit(signed_zero.parameter(2)[0]));

  SplineColumns sized(2, 2, true);
  sized.shape()[1] = 4;
  sized.linear_flag()[1] = 1;
  sized.parameter(1)[1] = 0.125;
  CHECK(sized.parameter(2).empty());
  const KeySpline second = sized[1];
  CHECK(second.shape == 4);
  CHECK(second.linear_flag == 1);
  CHECK(second.params[1] == 0.125);

  SplineColumns copy = sized;
  CHECK(copy == sized);
  copy.shape()[0] = 7;
  CHECK(sized.shape()[0] == 0);
  SplineColumns moved = std::move(copy);
  CHECK(moved.size() == 2);
  CHECK(copy.empty());  // NOLINT(bugprone-use-after-move)
}

TEST_CASE("columns from an arena keep it alive, and copies of them own heap buffers", "[model]") {
  KeyColumns keys;
  SplineColumns splines;
  std::weak_ptr<ColumnArena> watched;
  {
    auto arena = std::make_shared<ColumnArena>(64);  // a small first chunk: the second track needs another
    watched = arena;
    keys = KeyColumns(3, KeyColumns::kX, arena);
    splines = SplineColumns(3, 2, false, arena);
    KeyColumns other(100, KeyColumns::kXYZW, arena);
    CHECK(other.w()[99] == 0.0);  // zero-filled, as from the heap
    CHECK(keys.x()[2] == 0.0);
    for (std::size_t k = 0; k < 3; ++k) {
      keys.time()[k] = static_cast<double>(k);
      keys.x()[k] = 0.5 * static_cast<double>(k);
      splines.parameter(1)[k] = -1.0 * static_cast<double>(k);
    }
  }
  REQUIRE_FALSE(watched.expired());  // the file's holder is gone; its tracks still hold the arena
  CHECK(keys.x()[2] == 1.0);
  CHECK(splines.parameter(1)[2] == -2.0);
  KeyColumns copy = keys;
  keys = KeyColumns();
  CHECK(copy.x()[1] == 0.5);
  splines = SplineColumns();
  CHECK(watched.expired());  // the last column from the arena released it; the copy is on the heap
  CHECK(copy.time()[2] == 2.0);
}
