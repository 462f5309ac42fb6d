// Skeleton rules (validate) and world matrices composed parents first.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numbers>

#include "model/skeleton.h"

using namespace animdex;

namespace {

model::Skeleton chain(int count) {
  model::Skeleton skeleton{"chain", {}};
  for (int j = 0; j < count; ++j) {
    model::Joint joint;
    joint.parent = j - 1;
    joint.bind.translation = {j == 0 ? 0.0 : 10.0, 0, 0};
    joint.bind.rotation = axis_rotation(2, std::numbers::pi / 2);
    skeleton.joints.push_back(joint);
  }
  return skeleton;
}

}  // namespace

TEST_CASE("a skeleton's parents must be joints of it and form no loop, its numbers finite", "[model][skeleton]") {
  auto skeleton = chain(4);
  CHECK_FALSE(model::validate(skeleton));
  CHECK(*model::validate(model::Skeleton{"empty", {}}) == "the skeleton has no joint");
  auto loop = skeleton;
  loop.joints[0].parent = 3;
  CHECK(*model::validate(loop) == "joint 0: its parents form a loop");
  auto outside = skeleton;
  outside.joints[2].parent = 4;
  CHECK(*model::validate(outside) == "joint 2: parent 4 is not -1 or another of the 4 joints");
  auto itself = skeleton;
  itself.joints[1].parent = 1;
  CHECK_THAT(*model::validate(itself), Catch::StartsWith("joint 1: parent 1"));
  auto nan = skeleton;
  nan.joints[3].bind.translation[1] = std::numeric_limits<double>::quiet_NaN();
  CHECK(*model::validate(nan) == "joint 3: the bind pose holds a value that is not finite");
  // A DS model hides a part with scale 0: that is a skeleton all the same.
  auto hidden = skeleton;
  hidden.joints[2].bind.scale = {0, 0, 0};
  CHECK_FALSE(model::validate(hidden));
}

TEST_CASE("world matrices compose each parent's before its children's, whatever the order", "[model][skeleton]") {
  auto skeleton = chain(3);
  // Each joint turns 90 degrees about z and sits 10 along its parent's x: (0,0), (0,10), (-10,10).
  const auto world = model::world_matrices(skeleton, model::bind_pose(skeleton));
  CHECK(world[1][12] == Approx(0).margin(1e-12));
  CHECK(world[1][13] == Approx(10));
  CHECK(world[2][12] == Approx(-10));
  CHECK(world[2][13] == Approx(10));
  // The same joints listed children first give the same positions.
  model::Skeleton reversed{"reversed", {skeleton.joints[2], skeleton.joints[1], skeleton.joints[0]}};
  reversed.joints[0].parent = 1;
  reversed.joints[1].parent = 2;
  reversed.joints[2].parent = -1;
  const auto again = model::world_matrices(reversed, model::bind_pose(reversed));
  CHECK(again[0][12] == Approx(-10));
  CHECK(again[0][13] == Approx(10));
}

TEST_CASE("a sampled animation must have frames, a rate and one finite transform per joint", "[model][skeleton]") {
  const auto skeleton = chain(2);
  auto animation = model::sampled_animation("walk", 30, 0);
  CHECK(*model::validate(animation, skeleton) == "'walk': the animation has 0 frames");
  animation.frames.push_back(model::bind_pose(skeleton));
  CHECK_FALSE(model::validate(animation, skeleton));
  animation.frames.push_back({Transform{}});
  CHECK(*model::validate(animation, skeleton) == "'walk': frame 1 has 1 joints, the skeleton 2");
  animation.frames.pop_back();
  animation.fps = 0;
  CHECK(*model::validate(animation, skeleton) == "'walk': the rate is not positive");
}
