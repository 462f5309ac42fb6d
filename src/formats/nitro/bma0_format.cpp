#include "formats/nitro/bma0_format.h"

#include "core/parse_budget.h"
#include "formats/nitro/nitro_format.h"
#include "formats/nitro/nitro_pose.h"
#include "formats/nitro/nitro_sampled.h"

namespace animdex::nitro {

namespace {

constexpr std::array<const char*, 5> kChannels = {"diffuse", "ambient", "specular", "emission", "alpha"};

model::BoneTrack value_track(const MatColorAnimation& animation, std::size_t index, std::size_t part) {
  const ColorMaterial& material = animation.materials[index];
  const ColorValue& value = material.values[part];
  const bool colour = part != kAlpha;
  std::vector<Steps> animated;
  if (!value.is_constant()) animated.push_back(value.steps());
  const std::vector<int> frames = union_sample_frames(animated, animation.frame_count);
  charge_parse_memory(frames.size(), model::kBytesPerKey, 0, "material colour keys");
  model::BoneTrack track;
  // A material is not a node: no bone number (bone queries leave materials out); the name says which.
  track.node_name = material.name;
  track.channels = kChannels[part];
  track.value_encoding = colour ? "rgb555" : "u8";
  track.keys = model::KeyColumns(frames.size(), model::KeyColumns::kFrame |
                                                    (colour ? model::KeyColumns::kXYZ : model::KeyColumns::kX));
  for (std::size_t k = 0; k < frames.size(); ++k) {
    track.keys.time()[k] = frames[k];
    track.keys.frame()[k] = frames[k];
    if (!colour) {
      track.keys.x()[k] = static_cast<double>(alpha_at(value, frames[k]));
      continue;
    }
    const auto rgb = rgb_at(value, frames[k]);
    for (std::size_t c = 0; c < 3; ++c) track.keys.value(c)[k] = static_cast<double>(rgb[c]);
  }
  track.total_time = frames.back();
  return track;
}

Result<model::AnimationFile> parse_to_model(std::span<const std::byte> bytes) {
  auto parsed = parse_bma0(bytes);
  if (!parsed) return parsed.error();
  return bma0_to_model(parsed.value());
}

PoseValue rgb_cell(const ColorValue& value, int frame) {
  const auto rgb = rgb_at(value, frame);
  return std::vector<double>{static_cast<double>(rgb[0]), static_cast<double>(rgb[1]), static_cast<double>(rgb[2])};
}

std::vector<PoseValue> pose_row(const ColorMaterial& material, int frame) {
  const auto& values = material.values;
  return {material.name,
          rgb_cell(values[kDiffuse], frame),
          rgb_cell(values[kAmbient], frame),
          rgb_cell(values[kSpecular], frame),
          rgb_cell(values[kEmission], frame),
          alpha_at(values[kAlpha], frame)};
}

}  // namespace

model::AnimationFile bma0_to_model(const Bma0File& file) {
  model::AnimationFile out = nitro_file_model(file.version, file.animations.size(), file.warnings);
  for (const auto& animation : file.animations) {
    model::Animation result = nitro_animation(animation.name, animation.frame_count);
    for (std::size_t index = 0; index < animation.materials.size(); ++index)
      for (std::size_t part = 0; part < 5; ++part) result.tracks.push_back(value_track(animation, index, part));
    out.animations.push_back(std::move(result));
  }
  return out;
}

Answer<Pose> bma0_pose(std::span<const std::byte> bytes, const PoseRequest& request) {
  return animation_pose(parse_bma0(bytes), request, [](const MatColorAnimation& animation, int frame, Pose& pose) {
    pose.rows_name = "materials";
    pose.columns = {"material", "diffuse", "ambient", "specular", "emission", "alpha"};
    pose.vector_sizes = {0, 3, 3, 3, 3, 0};
    for (const auto& material : animation.materials) pose.rows.push_back(pose_row(material, frame));
  });
}

FormatModule bma0_format_module() {
  FormatModule module{
      "nsbma",
      "Nintendo DS NSBMA (BMA0 material colour animations: diffuse, ambient, specular, emission, alpha)", "",
      [](std::span<const std::byte> head, std::uint64_t) { return has_magic(head, "BMA0"); }, &parse_to_model};
  module.pose = &bma0_pose;
  return in_nitro_family(module, ".nsbma");
}

}  // namespace animdex::nitro
