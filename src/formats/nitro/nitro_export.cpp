#include "formats/nitro/nitro_export.h"

#include <cmath>

#include <fmt/format.h>

#include "formats/export_sampling.h"
#include "formats/nitro/bca0_decode.h"
#include "formats/nitro/bca0_parser.h"
#include "formats/nitro/bmd0_parser.h"

namespace animdex::nitro {

namespace {

constexpr double kDsFramesPerSecond = 60;

Vector3 fx3(const std::array<std::int32_t, 3>& raw) { return {fx(raw[0]), fx(raw[1]), fx(raw[2])}; }

model::Skeleton skeleton_of(const Model& model) {
  model::Skeleton skeleton{model.name, {}};
  for (const auto& node : model.nodes) {
    model::Joint joint;
    joint.name = node.name;
    joint.parent = node.parent.value_or(-1);
    joint.bind = {fx3(node.bind.translation), quaternion_of_rows(node.bind.rotation_matrix()), fx3(node.bind.scale)};
    skeleton.joints.push_back(std::move(joint));
  }
  return skeleton;
}

// A node's pose at a DS frame over its bind pose: BCA0 gives whole T, R or S groups or leaves them.
Transform node_transform(const nsbca::JointAnimation& animation, std::size_t node, int frame, const Transform& bind) {
  Transform local = bind;
  if (node >= animation.nodes.size()) return local;
  const auto pose = nsbca::evaluate_node(animation, animation.nodes[node], frame);
  if (pose.translation) local.translation = *pose.translation;
  if (pose.rotation) local.rotation = quaternion_of_rows(*pose.rotation);
  if (pose.scale) local.scale = *pose.scale;
  return local;
}

}  // namespace

Answer<std::vector<model::Skeleton>> bmd0_skeletons(std::span<const std::byte> bytes, const SkeletonRequest&) {
  const auto parsed = parse_bmd0(bytes);
  if (!parsed) return file_error(parsed.error());
  std::vector<model::Skeleton> skeletons;
  for (const auto& model : parsed.value().models) skeletons.push_back(skeleton_of(model));
  return skeletons;
}

Answer<std::vector<ExportEntry>> bca0_exportable(std::span<const std::byte> bytes, const ExportRequest& request) {
  const auto parsed = nsbca::parse_nsbca(bytes);
  if (!parsed) return file_error(parsed.error());
  std::vector<ExportEntry> entries;
  std::vector<std::string> names;
  const auto& animations = parsed.value().animations;
  for (std::size_t i = 0; i < animations.size(); ++i) {
    const auto& animation = animations[i];
    names.push_back(animation.name);
    if (!request.animation.empty() && animation.name != request.animation) continue;
    ExportEntry entry;
    entry.index = i;
    entry.name = animation.name;
    entry.joints = animation.nodes.size();
    entry.exact_joints = false;  // BCA0 node i is model node i: a model may have more (nitro-models-and-anims.md)
    entry.skeleton_names = {animation.name};
    entry.by_joint_count = true;
    entry.merge_identical = false;  // as nitro_after_index.sql: two models of the name are none
    if (animation.frame_count == 0) entry.refusal = fmt::format("animation '{}' has 0 frames", animation.name);
    entries.push_back(std::move(entry));
  }
  if (entries.empty())
    return usage_error(animations.empty() ? "the file holds no animation"
                                          : fmt::format("no animation named '{}'; it has: {}", request.animation,
                                                        joined_names(names)));
  return entries;
}

Answer<model::SampledAnimation> bca0_sample(std::span<const std::byte> bytes, const ExportRequest& request,
                                            const ExportEntry& entry, const model::Skeleton& skeleton) {
  const auto parsed = nsbca::parse_nsbca(bytes);
  if (!parsed) return file_error(parsed.error());
  const auto& animation = parsed.value().animations.at(entry.index);
  const double last = (animation.frame_count - 1) / kDsFramesPerSecond;
  auto times = export_times(request, 0, last, kDsFramesPerSecond);
  if (const auto* error = std::get_if<CapabilityError>(&times)) return *error;
  const auto& seconds = std::get<std::vector<double>>(times);
  if (auto refused = check_export_size(seconds.size(), skeleton.joints.size(), request.rate.value_or(kDsFramesPerSecond)))
    return *refused;
  auto sampled = model::sampled_animation(entry.name, request.rate.value_or(kDsFramesPerSecond), seconds.front());
  const auto bind = model::bind_pose(skeleton);
  for (const double time : seconds) {
    // The runtime evaluates whole frames only (nsbca.md): a time between two shows the earlier.
    const int frame = static_cast<int>(std::floor(time * kDsFramesPerSecond + 1e-6));
    std::vector<Transform> locals;
    locals.reserve(skeleton.joints.size());
    for (std::size_t node = 0; node < skeleton.joints.size(); ++node)
      locals.push_back(node_transform(animation, node, frame, bind[node]));
    sampled.frames.push_back(std::move(locals));
  }
  return sampled;
}

}  // namespace animdex::nitro
