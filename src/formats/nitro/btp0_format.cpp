#include "formats/nitro/btp0_format.h"

#include "core/parse_budget.h"
#include "formats/nitro/nitro_format.h"
#include "formats/nitro/nitro_pose.h"

namespace animdex::nitro {

namespace {

model::BoneTrack pattern_track(const PatternMaterial& material) {
  charge_parse_memory(material.keys.size(), model::kBytesPerKey, 0, "pattern keys");
  model::BoneTrack track;
  // A material is not a node: no bone number (bone queries leave materials out); the name says which.
  track.node_name = material.name;
  track.channels = "pattern";
  track.value_encoding = "pattern";
  track.keys = model::KeyColumns(material.keys.size(),
                                 model::KeyColumns::kFrame | model::KeyColumns::kX | model::KeyColumns::kY);
  for (std::size_t k = 0; k < material.keys.size(); ++k) {
    track.keys.time()[k] = material.keys[k].frame;
    track.keys.frame()[k] = material.keys[k].frame;
    track.keys.x()[k] = material.keys[k].texture;
    track.keys.y()[k] = material.keys[k].palette;
  }
  track.total_time = material.keys.empty() ? 0.0 : material.keys.back().frame;
  return track;
}

// The names the keys' indexes stand for (nitro_tables.sql `pattern_names`), so SQL can name them.
void append_name_rows(std::vector<model::FormatRow>& rows, const std::vector<std::string>& names, const char* kind,
                      std::size_t animation_index) {
  for (std::size_t i = 0; i < names.size(); ++i)
    rows.push_back({"pattern_names",
                    animation_index,
                    {{"kind", std::string(kind)}, {"name_index", model::number(i)}, {"name", names[i]}}});
}

Result<model::AnimationFile> parse_to_model(std::span<const std::byte> bytes) {
  auto parsed = parse_btp0(bytes);
  if (!parsed) return parsed.error();
  return btp0_to_model(parsed.value());
}

std::vector<PoseValue> pose_row(const TexPatternAnimation& animation, const PatternMaterial& material, int frame) {
  const std::size_t index = pattern_key_at(material, frame);
  const PatternKey& key = material.keys[index];
  const bool has_palette = !(material.flag & 1) && key.palette < animation.palettes.size();  // bit 0: NOPLTT
  const PoseValue palette = has_palette ? PoseValue(animation.palettes[key.palette]) : PoseValue();
  return {material.name,
          static_cast<std::int64_t>(index),
          std::int64_t{key.texture},
          std::int64_t{key.palette},
          animation.textures.at(key.texture),
          palette};
}

}  // namespace

model::AnimationFile btp0_to_model(const Btp0File& file) {
  model::AnimationFile out = nitro_file_model(file.version, file.animations.size(), file.warnings);
  for (const auto& animation : file.animations) {
    model::Animation result = nitro_animation(animation.name, animation.frame_count);
    for (const auto& material : animation.materials) result.tracks.push_back(pattern_track(material));
    append_name_rows(out.format_rows, animation.textures, "texture", out.animations.size());
    append_name_rows(out.format_rows, animation.palettes, "palette", out.animations.size());
    out.animations.push_back(std::move(result));
  }
  return out;
}

Answer<Pose> btp0_pose(std::span<const std::byte> bytes, const PoseRequest& request) {
  return animation_pose(parse_btp0(bytes), request, [](const TexPatternAnimation& animation, int frame, Pose& pose) {
    pose.rows_name = "materials";
    pose.columns = {"material", "key", "texture_index", "palette_index", "texture", "palette"};
    pose.vector_sizes = {0, 0, 0, 0, 0, 0};
    for (const auto& material : animation.materials)
      pose.rows.push_back(pose_row(animation, material, frame));
  });
}

FormatModule btp0_format_module() {
  FormatModule module{"nsbtp",
                      "Nintendo DS NSBTP (BTP0 texture pattern animations: texture and palette keys per material)", "",
                      [](std::span<const std::byte> head, std::uint64_t) { return has_magic(head, "BTP0"); },
                      &parse_to_model};
  module.pose = &btp0_pose;
  return in_nitro_family(module, ".nsbtp");
}

}  // namespace animdex::nitro
