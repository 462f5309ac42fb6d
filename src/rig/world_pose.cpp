#include "rig/world_pose.h"

namespace animdex::rig {

Pose world_pose(const model::Skeleton& skeleton, const std::vector<Transform>& locals) {
  Pose pose;
  pose.rows_name = "joints";
  pose.columns = {"node", "name", "parent", "P", "M"};
  pose.vector_sizes = {0, 0, 0, 3, 16};
  const auto world = model::world_matrices(skeleton, locals);
  for (std::size_t j = 0; j < world.size(); ++j) {
    const auto& joint = skeleton.joints[j];
    const auto& m = world[j];
    std::vector<double> rows(16);  // printed row-major: M.m03, M.m13, M.m23 are the position
    for (std::size_t r = 0; r < 4; ++r)
      for (std::size_t c = 0; c < 4; ++c) rows[r * 4 + c] = m[c * 4 + r];
    pose.rows.push_back({static_cast<std::int64_t>(j), joint.name.empty() ? PoseValue() : PoseValue(joint.name),
                         joint.parent < 0 ? PoseValue() : PoseValue(joint.parent),
                         std::vector<double>{m[12], m[13], m[14]}, std::move(rows)});
  }
  return pose;
}

}  // namespace animdex::rig
