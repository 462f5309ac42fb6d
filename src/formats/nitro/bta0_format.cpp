#include "formats/nitro/bta0_format.h"

#include <cmath>
#include <numbers>

#include "core/parse_budget.h"
#include "formats/nitro/nitro_format.h"
#include "formats/nitro/nitro_pose.h"
#include "formats/nitro/nitro_sampled.h"

namespace animdex::nitro {

namespace {

// The scale and translation encodings as NSBCA names them: what the animated arrays store (a
// constant is the fx32 `ex` word).
std::string encoding_of(const SrtValue& s, const SrtValue& t) {
  bool fx16 = false, fx32 = false;
  for (const SrtValue* value : {&s, &t})
    if (!value->is_constant()) (value->fx16() ? fx16 : fx32) = true;
  if (fx16 && fx32) return "fx16+fx32";
  return fx16 ? "fx16" : "fx32";
}

std::vector<int> key_frames(std::initializer_list<const SrtValue*> values, int frame_count) {
  std::vector<Steps> animated;
  for (const SrtValue* value : values)
    if (!value->is_constant()) animated.push_back(value->steps());
  return union_sample_frames(animated, frame_count);
}

model::BoneTrack material_track(const std::string& material, const char* channels, std::string encoding,
                                const std::vector<int>& frames) {
  charge_parse_memory(frames.size(), model::kBytesPerKey, 0, "texture SRT keys");
  model::BoneTrack track;
  // A material is not a node: no bone number (bone queries leave materials out); the name says which.
  track.node_name = material;
  track.channels = channels;
  track.value_encoding = std::move(encoding);
  track.keys = model::KeyColumns(frames.size(),
                                 model::KeyColumns::kFrame | model::KeyColumns::kX | model::KeyColumns::kY);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    track.keys.time()[k] = frames[k];
    track.keys.frame()[k] = frames[k];
  }
  track.total_time = frames.back();
  return track;
}

// A track of two scalar parts (scale S/T or translation S/T).
model::BoneTrack pair_track(const TexSrtAnimation& animation, std::size_t index, const char* channels, SrtPart s_part,
                            SrtPart t_part) {
  const SrtMaterial& material = animation.materials[index];
  const SrtValue &s = material.values[s_part], &t = material.values[t_part];
  model::BoneTrack track = material_track(material.name, channels, encoding_of(s, t),
                                          key_frames({&s, &t}, animation.frame_count));
  for (std::size_t k = 0; k < track.keys.size(); ++k) {
    const int frame = static_cast<int>(track.keys.frame()[k]);
    track.keys.x()[k] = srt_scalar_at(s, frame);
    track.keys.y()[k] = srt_scalar_at(t, frame);
  }
  return track;
}

model::BoneTrack rotation_track(const TexSrtAnimation& animation, std::size_t index) {
  const SrtMaterial& material = animation.materials[index];
  const SrtValue& rotation = material.values[kRotation];
  model::BoneTrack track =
      material_track(material.name, "rotation", "sincos16", key_frames({&rotation}, animation.frame_count));
  for (std::size_t k = 0; k < track.keys.size(); ++k) {
    const auto [sin, cos] = srt_sin_cos_at(rotation, static_cast<int>(track.keys.frame()[k]));
    track.keys.x()[k] = sin;
    track.keys.y()[k] = cos;
  }
  return track;
}

Result<model::AnimationFile> parse_to_model(std::span<const std::byte> bytes) {
  auto parsed = parse_bta0(bytes);
  if (!parsed) return parsed.error();
  return bta0_to_model(parsed.value());
}

std::vector<PoseValue> pose_row(const SrtMaterial& material, int frame) {
  const auto& values = material.values;
  const auto [sin, cos] = srt_sin_cos_at(values[kRotation], frame);
  return {material.name,
          std::vector<double>{srt_scalar_at(values[kScaleS], frame), srt_scalar_at(values[kScaleT], frame)},
          std::vector<double>{sin, cos},
          std::atan2(sin, cos) * 180.0 / std::numbers::pi,
          std::vector<double>{srt_scalar_at(values[kTransS], frame), srt_scalar_at(values[kTransT], frame)}};
}

}  // namespace

model::AnimationFile bta0_to_model(const Bta0File& file) {
  model::AnimationFile out = nitro_file_model(file.version, file.animations.size(), file.warnings);
  for (const auto& animation : file.animations) {
    model::Animation result = nitro_animation(animation.name, animation.frame_count);
    for (std::size_t index = 0; index < animation.materials.size(); ++index) {
      result.tracks.push_back(pair_track(animation, index, "scale", kScaleS, kScaleT));
      result.tracks.push_back(rotation_track(animation, index));
      result.tracks.push_back(pair_track(animation, index, "translation", kTransS, kTransT));
    }
    out.animations.push_back(std::move(result));
  }
  return out;
}

Answer<Pose> bta0_pose(std::span<const std::byte> bytes, const PoseRequest& request) {
  return animation_pose(parse_bta0(bytes), request, [](const TexSrtAnimation& animation, int frame, Pose& pose) {
    pose.rows_name = "materials";
    pose.columns = {"material", "S", "R", "angle", "T"};
    pose.vector_sizes = {0, 2, 2, 0, 2};
    for (const auto& material : animation.materials) pose.rows.push_back(pose_row(material, frame));
  });
}

FormatModule bta0_format_module() {
  FormatModule module{"nsbta",
                      "Nintendo DS NSBTA (BTA0 texture SRT animations: scale, rotation, translation per material)", "",
                      [](std::span<const std::byte> head, std::uint64_t) { return has_magic(head, "BTA0"); },
                      &parse_to_model};
  module.pose = &bta0_pose;
  return in_nitro_family(module, ".nsbta");
}

}  // namespace animdex::nitro
