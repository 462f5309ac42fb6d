#include "formats/nsbca/nsbca_pose.h"

#include <cmath>
#include <fmt/format.h>

#include "formats/nsbca/nsbca_decode.h"
#include "formats/nsbca/nsbca_parser.h"

namespace animdex::nsbca {

namespace {

template <std::size_t N>
PoseValue numbers(const std::optional<std::array<double, N>>& values) {
  if (!values) return {};
  return std::vector<double>(values->begin(), values->end());
}

// The animation the request names (the first when it names none), or why there is none.
Answer<const JointAnimation*> choose(const NsbcaFile& file, const std::string& name) {
  std::string names;
  for (const auto& candidate : file.animations) {
    if (name.empty() || candidate.name == name) return &candidate;
    names += (names.empty() ? "" : ", ") + candidate.name;
  }
  return usage_error(file.animations.empty() ? "the file holds no animation"
                                       : fmt::format("no animation named '{}'; it has: {}", name, names));
}

}  // namespace

Answer<Pose> pose_nodes(std::span<const std::byte> bytes, const PoseRequest& request) {
  auto parsed = parse_nsbca(bytes);
  if (!parsed) return file_error(parsed.error());
  const auto chosen = choose(parsed.value(), request.animation);
  if (const auto* error = std::get_if<CapabilityError>(&chosen)) return *error;
  const JointAnimation& animation = *std::get<const JointAnimation*>(chosen);
  if (!request.frame || *request.frame != std::floor(*request.frame))
    return usage_error(fmt::format("NSBCA poses are sampled at integer frames: give --frame F (0..{})",
                             animation.frame_count - 1));
  if (*request.frame < 0 || *request.frame >= animation.frame_count)
    return usage_error(fmt::format("frame {} is outside 0..{} of '{}'", *request.frame, animation.frame_count - 1,
                             animation.name));
  const int frame = static_cast<int>(*request.frame);
  Pose pose;
  const double fps = request.fps.value_or(60.0);  // the DS draws 60 frames a second; the file stores no rate
  pose.about = {{"slot", PoseValue()},
                {"animation", animation.name},
                {"time", frame / fps},
                {"frame", std::int64_t{frame}},
                {"fps", fps},
                {"frame_count", std::int64_t{animation.frame_count}}};
  pose.rows_name = "nodes";
  pose.columns = {"node", "node_id", "T", "R", "S"};
  pose.vector_sizes = {0, 0, 3, 9, 3};
  for (std::size_t index = 0; index < animation.nodes.size(); ++index) {
    const auto node = evaluate_node(animation, animation.nodes[index], frame);
    pose.rows.push_back({static_cast<std::int64_t>(index), std::int64_t{animation.nodes[index].node_id()},
                         numbers(node.translation), numbers(node.rotation), numbers(node.scale)});
  }
  return pose;
}

}  // namespace animdex::nsbca
