#include "formats/nitro/bca0_pose.h"

#include "formats/nitro/nitro_pose.h"
#include "formats/nitro/bca0_decode.h"
#include "formats/nitro/bca0_parser.h"

namespace animdex::nsbca {

namespace {

template <std::size_t N>
PoseValue numbers(const std::optional<std::array<double, N>>& values) {
  if (!values) return {};
  return std::vector<double>(values->begin(), values->end());
}

}  // namespace

// The animation, frame and `about` fields are chosen as for every Nitro kind (nitro_pose.h).
Answer<Pose> pose_nodes(std::span<const std::byte> bytes, const PoseRequest& request) {
  return nitro::animation_pose(parse_nsbca(bytes), request, [](const JointAnimation& animation, int frame, Pose& pose) {
    pose.rows_name = "nodes";
    // `name`: the model node's, which the CLI fills from the model the animation links to.
    pose.columns = {"node", "node_id", "name", "T", "R", "S"};
    pose.vector_sizes = {0, 0, 0, 3, 9, 3};
    for (std::size_t index = 0; index < animation.nodes.size(); ++index) {
      const auto node = evaluate_node(animation, animation.nodes[index], frame);
      pose.rows.push_back({static_cast<std::int64_t>(index), std::int64_t{animation.nodes[index].node_id()},
                           std::monostate{}, numbers(node.translation), numbers(node.rotation), numbers(node.scale)});
    }
  });
}

}  // namespace animdex::nsbca
