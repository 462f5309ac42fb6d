// The link rule as export and pose --world apply it beside a file (rig/skeleton_link.h): the same
// answers as kh2_after_index.sql and nitro_after_index.sql give in the index.
#include <catch2/catch.hpp>

#include "rig/skeleton_link.h"

using namespace animdex;

namespace {

rig::SkeletonCandidate candidate(const std::string& source, const std::string& name, int joints, double twist = 0) {
  model::Skeleton skeleton{name, {}};
  for (int j = 0; j < joints; ++j) {
    model::Joint joint;
    joint.parent = j - 1;
    joint.bind.rotation = axis_rotation(2, twist);
    skeleton.joints.push_back(joint);
  }
  return {source, skeleton};
}

ExportEntry kh2_motion(std::size_t bones, std::vector<std::string> names) {
  ExportEntry entry;
  entry.name = "0 A000";
  entry.joints = bones;
  entry.skeleton_names = std::move(names);
  return entry;
}

ExportEntry ds_animation(const std::string& name, std::size_t nodes) {
  ExportEntry entry;
  entry.name = name;
  entry.joints = nodes;
  entry.exact_joints = false;
  entry.skeleton_names = {name};
  entry.by_joint_count = true;
  entry.merge_identical = false;
  return entry;
}

}  // namespace

TEST_CASE("KH2: own name, then base code, bone counts equal, identical models one skeleton", "[rig][link]") {
  const std::vector<rig::SkeletonCandidate> models{candidate("a/P_EX100.mdlx", "P_EX100", 228),
                                                   candidate("b/P_EX100.mdlx", "P_EX100", 228),
                                                   candidate("mod/P_EX100.mdlx", "P_EX100", 229),
                                                   candidate("M_EX350.mdlx", "M_EX350", 82),
                                                   candidate("c/F_TT010.mdlx", "F_TT010", 8, 0.1),
                                                   candidate("d/F_TT010.mdlx", "F_TT010", 8, 0.2)};
  const auto sora = rig::choose_skeleton(kh2_motion(228, {"P_EX100_MAGF", "P_EX100"}), models);
  REQUIRE(sora.chosen);
  CHECK(sora.chosen->source == "a/P_EX100.mdlx");  // the two identical copies: one skeleton
  CHECK(sora.method == "name");
  // The 229-bone mod is never taken for a 228-bone motion, and not for the base code either.
  CHECK(rig::choose_skeleton(kh2_motion(229, {"P_EX100"}), models).chosen->source == "mod/P_EX100.mdlx");
  const auto memo = rig::choose_skeleton(kh2_motion(82, {"M_EX350_MEMO", "M_EX350"}), models);
  REQUIRE(memo.chosen);
  CHECK(memo.chosen->source == "M_EX350.mdlx");
  const auto two = rig::choose_skeleton(kh2_motion(8, {"F_TT010"}), models);
  CHECK_FALSE(two.chosen);
  CHECK(two.why == "2 different skeletons are named 'F_TT010' (c/F_TT010.mdlx, d/F_TT010.mdlx); none is taken");
  const auto none = rig::choose_skeleton(kh2_motion(53, {"F_TT010"}), models);
  CHECK_FALSE(none.chosen);
  CHECK(none.why == "no model named 'F_TT010' with 53 joints beside it (6 models looked at)");
}

TEST_CASE("DS: the model of the animation's name if it has enough nodes, else the one of its node count",
          "[rig][link]") {
  const std::vector<rig::SkeletonCandidate> models{candidate("0", "door", 3), candidate("5", "gate", 2),
                                                   candidate("7", "lamp", 4)};
  const auto named = rig::choose_skeleton(ds_animation("door", 2), models);
  REQUIRE(named.chosen);
  CHECK(named.chosen->source == "0");
  CHECK(named.method == "name");
  const auto counted = rig::choose_skeleton(ds_animation("wind", 4), models);
  REQUIRE(counted.chosen);
  CHECK(counted.chosen->source == "7");
  CHECK(counted.method == "joint_count");
  const auto small = rig::choose_skeleton(ds_animation("gate", 3), models);
  CHECK_FALSE(small.chosen);
  CHECK(small.why == "'gate' animates 3 joints, more than the model 'gate' has (2)");
  // Two models of the name: none, even when they are alike (as nitro_after_index.sql).
  const std::vector<rig::SkeletonCandidate> twins{candidate("0", "door", 3), candidate("1", "door", 3)};
  CHECK_FALSE(rig::choose_skeleton(ds_animation("door", 3), twins).chosen);
}

TEST_CASE("a model chosen by hand must fit the animation", "[rig][link]") {
  const auto model = candidate("x.mdlx", "X", 24);
  CHECK(rig::misfit(kh2_motion(32, {}), model.skeleton) == "'0 A000' animates 32 joints; the model 'X' has 24");
  CHECK(rig::misfit(kh2_motion(24, {}), model.skeleton).empty());
}
