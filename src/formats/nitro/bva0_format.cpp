#include "formats/nitro/bva0_format.h"

#include "core/parse_budget.h"
#include "formats/nitro/nitro_format.h"
#include "formats/nitro/nitro_pose.h"

namespace animdex::nitro {

namespace {

model::BoneTrack node_track(const VisibilityAnimation& animation, int node) {
  std::vector<int> frames;
  for (int frame = 0; frame < animation.frame_count; ++frame)
    if (frame == 0 || animation.visible(frame, node) != animation.visible(frame - 1, node)) frames.push_back(frame);
  charge_parse_memory(frames.size(), model::kBytesPerKey, 0, "visibility keys");
  model::BoneTrack track;
  track.bone_id = node;
  track.channels = "visible";
  track.value_encoding = "bit";
  track.keys = model::KeyColumns(frames.size(), model::KeyColumns::kFrame | model::KeyColumns::kX);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    track.keys.time()[k] = frames[k];
    track.keys.frame()[k] = frames[k];
    track.keys.x()[k] = animation.visible(frames[k], node) ? 1 : 0;
  }
  track.total_time = frames.back();
  return track;
}

Result<model::AnimationFile> parse_to_model(std::span<const std::byte> bytes) {
  auto parsed = parse_bva0(bytes);
  if (!parsed) return parsed.error();
  return bva0_to_model(parsed.value());
}

}  // namespace

model::AnimationFile bva0_to_model(const Bva0File& file) {
  model::AnimationFile out = nitro_file_model(file.version, file.animations.size(), file.warnings);
  for (const auto& animation : file.animations) {
    // numNode is a u16 and every set entry may name the same animation: tracks are charged too.
    charge_parse_memory(animation.node_count, sizeof(model::BoneTrack), 0, "visibility tracks");
    model::Animation result = nitro_animation(animation.name, animation.frame_count);
    for (int node = 0; node < animation.node_count; ++node) result.tracks.push_back(node_track(animation, node));
    out.animations.push_back(std::move(result));
  }
  return out;
}

Answer<Pose> bva0_pose(std::span<const std::byte> bytes, const PoseRequest& request) {
  return animation_pose(parse_bva0(bytes), request, [](const VisibilityAnimation& animation, int frame, Pose& pose) {
    pose.rows_name = "nodes";
    pose.columns = {"node", "visible"};
    pose.vector_sizes = {0, 0};
    for (int node = 0; node < animation.node_count; ++node)
      pose.rows.push_back({std::int64_t{node}, std::int64_t{animation.visible(frame, node)}});
  });
}

FormatModule bva0_format_module() {
  FormatModule module{"nsbva", "Nintendo DS NSBVA (BVA0 visibility animations: a bit per frame and model node)", "",
                      [](std::span<const std::byte> head, std::uint64_t) { return has_magic(head, "BVA0"); },
                      &parse_to_model};
  module.pose = &bva0_pose;
  return in_nitro_family(module, ".nsbva");
}

}  // namespace animdex::nitro
