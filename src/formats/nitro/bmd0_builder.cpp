#include "formats/nitro/bmd0_builder.h"

namespace animdex::nitro {

namespace {

Bytes bind_pose_bytes(const NodeBindPose& pose) {
  Bytes out;
  put_u16(out, pose.flag);
  put_u16(out, static_cast<std::uint16_t>(pose.m00));
  if (!(pose.flag & kNodeTransZero))
    for (const auto value : pose.translation) put_u32(out, static_cast<std::uint32_t>(value));
  if (!(pose.flag & kNodeRotZero)) {
    const std::size_t values = (pose.flag & kNodePivotExists) ? 2 : 8;
    for (std::size_t v = 0; v < values; ++v) put_u16(out, static_cast<std::uint16_t>(pose.rotation_values[v]));
  }
  if (!(pose.flag & kNodeScaleOne)) {
    for (const auto value : pose.scale) put_u32(out, static_cast<std::uint32_t>(value));
    for (const auto value : pose.inverse_scale) put_u32(out, static_cast<std::uint32_t>(value));
  }
  return out;
}

// A dictionary whose entries are all the same u32 (data the parser does not read).
Bytes names_dictionary(const std::vector<std::string>& names, std::uint32_t data) {
  Bytes entry;
  put_u32(entry, data);
  return dictionary_bytes(names, 4, std::vector<Bytes>(names.size(), entry));
}

Bytes model_bytes(const Model& model) {
  Bytes out(0x40, std::byte{0});
  // Node dictionary at +0x40, its entries' offsets relative to its own start.
  const std::size_t dictionary_size = names_dictionary(std::vector<std::string>(model.nodes.size()), 0).size();
  std::vector<Bytes> records, offsets;
  std::size_t at = dictionary_size;
  std::vector<std::string> names;
  for (const auto& node : model.nodes) {
    records.push_back(bind_pose_bytes(node.bind));
    Bytes offset;
    put_u32(offset, static_cast<std::uint32_t>(at));
    offsets.push_back(offset);
    at += records.back().size();
    names.push_back(node.name);
  }
  const Bytes dictionary = dictionary_bytes(names, 4, offsets);
  out.insert(out.end(), dictionary.begin(), dictionary.end());
  for (const auto& record : records) out.insert(out.end(), record.begin(), record.end());
  const std::size_t sbc_at = out.size();
  for (const auto op : model.sbc.empty() ? sbc_for_nodes(model.nodes) : model.sbc) put_u8(out, op);
  pad_to_4(out);
  const std::size_t material_at = out.size();
  const Bytes materials = names_dictionary(model.materials, 0);
  const Bytes no_pairs = names_dictionary({}, 0);
  put_u16(out, static_cast<std::uint16_t>(4 + materials.size()));
  put_u16(out, static_cast<std::uint16_t>(4 + materials.size() + no_pairs.size()));
  out.insert(out.end(), materials.begin(), materials.end());
  out.insert(out.end(), no_pairs.begin(), no_pairs.end());
  out.insert(out.end(), no_pairs.begin(), no_pairs.end());
  const std::size_t shape_at = out.size();
  const Bytes shapes = names_dictionary(model.shapes, 0);
  out.insert(out.end(), shapes.begin(), shapes.end());
  pad_to_4(out);
  patch_u32(out, 0x00, static_cast<std::uint32_t>(out.size()));
  patch_u32(out, 0x04, static_cast<std::uint32_t>(sbc_at));
  patch_u32(out, 0x08, static_cast<std::uint32_t>(material_at));
  patch_u32(out, 0x0C, static_cast<std::uint32_t>(shape_at));
  patch_u32(out, 0x10, static_cast<std::uint32_t>(out.size()));  // no envelope matrices
  out[0x15] = static_cast<std::byte>(model.scaling_rule);
  out[0x16] = static_cast<std::byte>(model.texture_matrix_mode);
  out[0x17] = static_cast<std::byte>(model.nodes.size());
  out[0x18] = static_cast<std::byte>(model.materials.size());
  out[0x19] = static_cast<std::byte>(model.shapes.size());
  patch_u32(out, 0x1C, static_cast<std::uint32_t>(model.position_scale));
  patch_u32(out, 0x20, static_cast<std::uint32_t>(model.position_scale == 0 ? 0 : 4096 * 4096 / model.position_scale));
  patch_u16(out, 0x24, model.vertex_count);
  patch_u16(out, 0x26, model.polygon_count);
  return out;
}

}  // namespace

std::vector<std::uint8_t> sbc_for_nodes(const std::vector<ModelNode>& nodes) {
  std::vector<std::uint8_t> sbc;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const auto node = static_cast<std::uint8_t>(n);
    if (nodes[n].visible) sbc.insert(sbc.end(), {0x02, node, static_cast<std::uint8_t>(*nodes[n].visible ? 1 : 0)});
    sbc.insert(sbc.end(), {0x06, node, static_cast<std::uint8_t>(nodes[n].parent.value_or(static_cast<int>(n))), 0});
  }
  sbc.push_back(0x01);
  return sbc;
}

Model tree_model(const std::string& name, const std::vector<std::string>& names, const std::vector<int>& parents,
                 const std::vector<std::string>& materials) {
  Model model;
  model.name = name;
  for (std::size_t n = 0; n < names.size(); ++n) {
    ModelNode node;
    node.name = names[n];
    if (parents[n] >= 0) node.parent = parents[n];
    node.has_descriptor = true;
    model.nodes.push_back(node);
  }
  model.materials = materials;
  model.sbc = sbc_for_nodes(model.nodes);
  return model;
}

Bytes write_bmd0(const Bmd0File& file) {
  std::vector<std::string> names;
  for (const auto& model : file.models) names.push_back(model.name);
  const std::size_t dictionary_size = names_dictionary(names, 0).size();
  std::vector<Bytes> offsets, models;
  std::size_t at = 8 + dictionary_size;
  for (const auto& model : file.models) {
    Bytes offset;
    put_u32(offset, static_cast<std::uint32_t>(at));
    offsets.push_back(offset);
    models.push_back(model_bytes(model));
    at += models.back().size();
  }
  Bytes body = dictionary_bytes(names, 4, offsets);
  for (const auto& model : models) body.insert(body.end(), model.begin(), model.end());
  return file_bytes("BMD0", file.version, {block_bytes("MDL0", body)});
}

}  // namespace animdex::nitro
