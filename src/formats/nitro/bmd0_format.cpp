#include "formats/nitro/bmd0_format.h"

#include "core/rotation.h"
#include "formats/nitro/nitro_file.h"
#include "formats/nitro/nitro_format.h"
#include "formats/nitro/nitro_export.h"
#include "formats/nitro/nitro_pose.h"

namespace animdex::nitro {

namespace {

const char* rotation_form(NodeBindPose::Rotation rotation) {
  switch (rotation) {
    case NodeBindPose::Rotation::pivot: return "pivot";
    case NodeBindPose::Rotation::matrix: return "matrix";
    default: return "identity";
  }
}

// A 1/4096 fixed-point number as its exact value (model::ExactNumber): -1033.616943359375, not the
// float32 text -1033.617.
model::RowValue exact_fx(std::int64_t raw) { return model::ExactNumber{fx(raw)}; }

model::FormatRow node_row(std::size_t model_index, std::size_t node_index, const ModelNode& node) {
  const auto& bind = node.bind;
  // Rotations are 1/4096 fixed point: float32 keeps all of it, as NSBCA's quaternions do.
  const auto narrow = [](double value) { return static_cast<double>(static_cast<float>(value)); };
  const auto quaternion = quaternion_from_rows(bind.rotation_matrix());
  return {"model_nodes",
          std::nullopt,
          {{"model_index", model::number(model_index)},
           {"node_index", model::number(node_index)},
           {"name", node.name},
           {"parent", model::number(node.parent)},
           {"visible", node.visible ? model::number(*node.visible ? 1 : 0) : model::RowValue()},
           {"flag", model::number(bind.flag)},
           {"t_x", exact_fx(bind.translation[0])},
           {"t_y", exact_fx(bind.translation[1])},
           {"t_z", exact_fx(bind.translation[2])},
           {"rotation", std::string(rotation_form(bind.rotation))},
           {"q_x", narrow(quaternion[0])},
           {"q_y", narrow(quaternion[1])},
           {"q_z", narrow(quaternion[2])},
           {"q_w", narrow(quaternion[3])},
           {"s_x", exact_fx(bind.scale[0])},
           {"s_y", exact_fx(bind.scale[1])},
           {"s_z", exact_fx(bind.scale[2])}}};
}

Result<model::AnimationFile> parse_to_model(std::span<const std::byte> bytes) {
  auto parsed = parse_bmd0(bytes);
  if (!parsed) return parsed.error();
  return bmd0_to_model(parsed.value());
}

PoseValue numbers(std::span<const double> values) { return std::vector<double>(values.begin(), values.end()); }

}  // namespace

model::AnimationFile bmd0_to_model(const Bmd0File& file) {
  model::AnimationFile out = nitro_file_model(file.version, 0, file.warnings);
  out.properties.push_back({"model_count", std::to_string(file.models.size())});
  for (std::size_t m = 0; m < file.models.size(); ++m) {
    const Model& model = file.models[m];
    out.format_rows.push_back({"nitro_models",
                               std::nullopt,
                               {{"model_index", model::number(m)},
                                {"name", model.name},
                                {"node_count", model::number(model.nodes.size())},
                                {"material_count", model::number(model.materials.size())},
                                {"shape_count", model::number(model.shapes.size())},
                                {"vertex_count", model::number(model.vertex_count)},
                                {"polygon_count", model::number(model.polygon_count)},
                                {"position_scale", exact_fx(model.position_scale)}}});
    for (std::size_t n = 0; n < model.nodes.size(); ++n) out.format_rows.push_back(node_row(m, n, model.nodes[n]));
    for (std::size_t i = 0; i < model.materials.size(); ++i)
      out.format_rows.push_back({"model_materials",
                                 std::nullopt,
                                 {{"model_index", model::number(m)},
                                  {"material_index", model::number(i)},
                                  {"name", model.materials[i]}}});
  }
  return out;
}

Answer<Pose> bmd0_pose(std::span<const std::byte> bytes, const PoseRequest& request) {
  auto parsed = parse_bmd0(bytes);
  if (!parsed) return file_error(parsed.error());
  const auto chosen = choose_animation(parsed.value().models, request.animation);
  if (const auto* error = std::get_if<CapabilityError>(&chosen)) return *error;
  const Model& model = *std::get<const Model*>(chosen);
  Pose pose;
  pose.values = Precision::fixed_point;  // 1/4096 steps, and cells computed from them
  pose.about = {{"slot", PoseValue()}, {"model", model.name}, {"node_count", std::int64_t(model.nodes.size())}};
  pose.rows_name = "nodes";
  pose.columns = {"node", "name", "parent", "T", "R", "S"};
  pose.vector_sizes = {0, 0, 0, 3, 9, 3};
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    const auto& node = model.nodes[n];
    const std::array<double, 3> t{fx(node.bind.translation[0]), fx(node.bind.translation[1]), fx(node.bind.translation[2])};
    const std::array<double, 3> s{fx(node.bind.scale[0]), fx(node.bind.scale[1]), fx(node.bind.scale[2])};
    const Matrix3 r = node.bind.rotation_matrix();
    pose.rows.push_back({std::int64_t(n), node.name, node.parent ? PoseValue(std::int64_t{*node.parent}) : PoseValue(),
                         numbers(t), numbers(r), numbers(s)});
  }
  return pose;
}

FormatModule bmd0_format_module() {
  FormatModule module{"nsbmd",
                      "Nintendo DS NSBMD (BMD0 models: node names, the node tree, bind poses, materials; no animation)",
                      "", [](std::span<const std::byte> head, std::uint64_t) { return has_magic(head, "BMD0"); },
                      &parse_to_model};
  module.pose = &bmd0_pose;
  module.skeletons = &bmd0_skeletons;
  // BTX0 holds the textures a model's TEX0 may leave out: not indexed, but a DS file all the same, so
  // an LZ member decoding to one is kept decompressed (containers.md section 3).
  module.recognizes = [](std::span<const std::byte> head) { return has_magic(head, "BTX0"); };
  return in_nitro_family(module, ".nsbmd");
}

}  // namespace animdex::nitro
