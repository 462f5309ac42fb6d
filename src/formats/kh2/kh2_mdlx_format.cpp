// The KH2 model format (`kh2_mdlx`): a BAR with a model entry. Its entries are listed as any BAR's
// (`mset_slots`), its skeleton goes to `kh2_models` and `model_nodes`, and `pose` prints the bind pose.
#include <fmt/format.h>

#include "formats/kh2/kh2_format.h"
#include "formats/kh2/kh2_export.h"
#include "formats/kh2/kh2_mdlx.h"
#include "formats/kh2/kh2_model.h"
#include "formats/kh2/kh2_motion_set.h"

namespace animdex::kh2 {

namespace {

model::FormatRow model_row(const ModelSkeleton& skeleton) {
  using model::number;
  const bool has_bones = !skeleton.bones.empty();
  return {"kh2_models",
          std::nullopt,
          {{"entry_name", skeleton.entry_name},
           {"model_type", number(skeleton.model_type)},
           {"bone_count", number(skeleton.bones.size())},
           {"bone_table_offset", has_bones ? number(skeleton.bone_table_offset) : model::RowValue()},
           {"skeleton_hash", has_bones ? model::RowValue(skeleton.skeleton_hash) : model::RowValue()}}};
}

model::FormatRow bone_row(std::size_t position, const ModelBone& bone) {
  using model::number;
  // Made from float32 angles, kept at float32 as the DS quaternions are: no digits the file never had.
  const auto narrow = [](double value) { return static_cast<double>(static_cast<float>(value)); };
  const auto q = quaternion_from_euler_xyz(bone.rotation);
  return {"model_nodes",
          std::nullopt,
          {{"model_index", number(0)},
           {"node_index", number(position)},
           {"parent", bone.parent < 0 ? model::RowValue() : number(bone.parent)},
           {"flag", number(bone.flags)},
           {"t_x", number(bone.translation[0])},
           {"t_y", number(bone.translation[1])},
           {"t_z", number(bone.translation[2])},
           {"rotation", std::string("euler_xyz")},
           {"q_x", narrow(q[0])},
           {"q_y", narrow(q[1])},
           {"q_z", narrow(q[2])},
           {"q_w", narrow(q[3])},
           {"s_x", number(bone.scale[0])},
           {"s_y", number(bone.scale[1])},
           {"s_z", number(bone.scale[2])},
           {"e_x", number(bone.rotation[0])},
           {"e_y", number(bone.rotation[1])},
           {"e_z", number(bone.rotation[2])}}};
}

Result<model::AnimationFile> parse_model_file(std::span<const std::byte> bytes) {
  auto skeleton = parse_mdlx_skeleton(bytes);
  if (!skeleton) return skeleton.error();
  auto listing = parse_plain_bar(bytes);
  if (!listing) return listing.error();
  model::AnimationFile file = to_model(listing.value());
  const auto& model = skeleton.value();
  file.warnings.insert(file.warnings.end(), model.warnings.begin(), model.warnings.end());
  file.properties.push_back({"model_entry", model.entry_name});
  file.properties.push_back({"model_type", std::to_string(model.model_type)});
  file.properties.push_back({"bone_count", std::to_string(model.bones.size())});
  file.format_rows.push_back(model_row(model));
  for (std::size_t b = 0; b < model.bones.size(); ++b) file.format_rows.push_back(bone_row(b, model.bones[b]));
  return file;
}

std::vector<double> three(const std::array<float, 3>& values) { return {values[0], values[1], values[2]}; }

// The bind pose: each bone's T, R (Euler x, y, z in radians, as stored) and S.
Answer<Pose> bind_pose(std::span<const std::byte> bytes, const PoseRequest&) {
  auto skeleton = parse_mdlx_skeleton(bytes);
  if (!skeleton) return file_error(skeleton.error());
  const auto& model = skeleton.value();
  Pose pose;
  pose.values = Precision::float32;
  pose.about = {{"slot", PoseValue()}, {"model", model.entry_name}, {"bone_count", std::int64_t(model.bones.size())}};
  pose.rows_name = "nodes";
  pose.columns = {"node", "parent", "T", "R", "S"};
  pose.vector_sizes = {0, 0, 3, 3, 3};
  for (std::size_t b = 0; b < model.bones.size(); ++b) {
    const auto& bone = model.bones[b];
    pose.rows.push_back({std::int64_t(b), bone.parent < 0 ? PoseValue() : PoseValue(std::int64_t{bone.parent}),
                         three(bone.translation), three(bone.rotation), three(bone.scale)});
  }
  return pose;
}

// A model is named after its object as its motion set is: obj/P_EX100.mdlx is P_EX100's.
std::optional<std::string_view> object_of_model(std::string_view file_name) { return object_of_file(file_name, "mdlx"); }

}  // namespace

bool detect_model(std::span<const std::byte> head, std::uint64_t size) { return lists_model_entry(head, size); }

FormatModule mdlx_format_module() {
  FormatModule module{"kh2_mdlx",
                      "Kingdom Hearts II model (.mdlx): BAR with a model entry; its skeleton (bones, parents, bind "
                      "pose) is read, meshes and textures are not",
                      "kh2", &detect_model, &parse_model_file};
  module.pose = &bind_pose;
  module.skeletons = &mdlx_skeletons;
  module.object_from_file_name = &object_of_model;
  module.object_folder = "obj";
  return in_family(module, ".mdlx");
}

}  // namespace animdex::kh2
