#include "formats/nitro/bmd0_parser.h"

#include <fmt/format.h>

#include "core/byte_reader.h"
#include "core/parse_budget.h"
#include "formats/nitro/nitro_file.h"
#include "formats/nitro/bca0_decode.h"

namespace animdex::nitro {

namespace {

constexpr Matrix3 kIdentity = {1, 0, 0, 0, 1, 0, 0, 0, 1};

// Length of an SBC command including its opcode (NNS_G3dSbcCmdLen), 0 for an invalid opcode;
// NODEMIX's depends on its count byte, read by the caller.
std::uint64_t sbc_length(std::uint8_t op) {
  switch (op) {
    case 0x00: case 0x01: case 0x0B: case 0x2B: return 1;
    case 0x03: case 0x04: case 0x24: case 0x44: case 0x05: case 0x07: case 0x08: return 2;
    case 0x02: case 0x27: case 0x47: case 0x28: case 0x48: case 0x0C: case 0x0D: case 0x09: return 3;
    case 0x06: case 0x67: case 0x68: return 4;
    case 0x26: case 0x46: return 5;
    case 0x66: return 6;
    case 0x0A: return 9;
    default: return 0;
  }
}

class ModelReader {
 public:
  ModelReader(const ByteReader& in, std::uint64_t start, std::uint64_t end, Model& out, std::vector<std::string>& warnings)
      : in_(in), start_(start), end_(end), out_(out), warnings_(warnings) {}

  void read() {
    const std::uint8_t node_count = in_.u8(start_ + 0x17);
    out_.scaling_rule = in_.u8(start_ + 0x15);
    out_.texture_matrix_mode = in_.u8(start_ + 0x16);
    out_.position_scale = in_.i32(start_ + 0x1C, LE);
    out_.vertex_count = in_.u16(start_ + 0x24, LE);
    out_.polygon_count = in_.u16(start_ + 0x26, LE);
    const std::uint64_t node_dictionary = start_ + 0x40;
    const auto nodes = read_dictionary(in_, node_dictionary, end_, 4, 0, "node", node_dictionary);
    if (nodes.size() != node_count)
      fail_at(start_ + 0x17, fmt::format("numNode equal to the node dictionary's {} entries", nodes.size()),
              std::to_string(node_count));
    charge_parse_memory(nodes.size(), sizeof(ModelNode), start_ + 0x17, "model nodes");
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      ModelNode node;
      node.name = nodes[n].name;
      node.bind = read_bind_pose(node_dictionary + in_.u32(nodes[n].data, LE), nodes[n].data, n);
      out_.nodes.push_back(std::move(node));
    }
    read_sbc(start_ + in_.u32(start_ + 0x04, LE), start_ + 0x04);
    read_materials(start_ + in_.u32(start_ + 0x08, LE), start_ + 0x08);
    const std::uint64_t shapes = start_ + in_.u32(start_ + 0x0C, LE);
    for (const auto& shape : read_dictionary(in_, shapes, end_, 4, 0, "shape", start_ + 0x0C)) out_.shapes.push_back(shape.name);
  }

 private:
  NodeBindPose read_bind_pose(std::uint64_t at, std::uint64_t field, std::size_t index) {
    NodeBindPose pose;
    const std::string what = fmt::format("node {} bind pose", index);
    require_inside(at, 4, end_, field, what);
    pose.flag = in_.u16(at, LE);
    pose.m00 = in_.i16(at + 2, LE);
    std::uint64_t cursor = at + 4;
    const auto next = [&](std::uint64_t length) {
      require_inside(cursor, length, end_, field, what);
      cursor += length;
      return cursor - length;
    };
    if (!(pose.flag & kNodeTransZero)) {
      const std::uint64_t t = next(12);
      for (std::size_t axis = 0; axis < 3; ++axis) pose.translation[axis] = in_.i32(t + 4 * axis, LE);
    }
    if (!(pose.flag & kNodeRotZero)) {
      const bool pivot = pose.flag & kNodePivotExists;
      pose.rotation = pivot ? NodeBindPose::Rotation::pivot : NodeBindPose::Rotation::matrix;
      const std::size_t values = pivot ? 2 : 8;
      const std::uint64_t r = next(2 * values);
      for (std::size_t v = 0; v < values; ++v) pose.rotation_values[v] = in_.i16(r + 2 * v, LE);
      if (pivot && pose.pivot_index() > 8)
        fail_at(at, fmt::format("node {} pivot position 0..8 (flag bits 4-7)", index), std::to_string(pose.pivot_index()));
    }
    if (!(pose.flag & kNodeScaleOne)) {
      const std::uint64_t s = next(24);  // scale, then its inverse
      for (std::size_t axis = 0; axis < 3; ++axis) {
        pose.scale[axis] = in_.i32(s + 4 * axis, LE);
        pose.inverse_scale[axis] = in_.i32(s + 12 + 4 * axis, LE);
      }
    }
    return pose;
  }

  void read_materials(std::uint64_t block, std::uint64_t field) {
    require_inside(block, 4, end_, field, "material block");
    for (const auto& material : read_dictionary(in_, block + 4, end_, 4, 0, "material", block + 4))
      out_.materials.push_back(material.name);
    check_pairing(block, block + in_.u16(block, LE), block, "texture");
    check_pairing(block, block + in_.u16(block + 2, LE), block + 2, "palette");
  }

  // A texture/palette -> materials dictionary: each entry's list of material indices is inside the
  // model and names existing materials.
  void check_pairing(std::uint64_t block, std::uint64_t at, std::uint64_t field, std::string_view what) {
    for (const auto& entry : read_dictionary(in_, at, end_, 4, 0, fmt::format("{} -> material", what), field)) {
      const std::uint64_t list = block + in_.u16(entry.data, LE);
      const std::uint8_t count = in_.u8(entry.data + 2);
      require_inside(list, count, end_, entry.data, fmt::format("{} '{}' material list", what, entry.name));
      for (std::uint8_t i = 0; i < count; ++i)
        if (in_.u8(list + i) >= out_.materials.size())
          fail_at(list + i, fmt::format("a material index < {} ({} '{}')", out_.materials.size(), what, entry.name),
                  std::to_string(in_.u8(list + i)));
    }
  }

  std::uint8_t node_operand(std::uint64_t at, const char* what) const {
    const std::uint8_t node = in_.u8(at);
    if (node >= out_.nodes.size())
      fail_at(at, fmt::format("SBC {} < the model's {} nodes", what, out_.nodes.size()), std::to_string(node));
    return node;
  }

  void read_sbc(std::uint64_t at, std::uint64_t field) {
    require_inside(at, 1, end_, field, "structure byte code");
    std::uint64_t cursor = at;
    while (true) {
      require_inside(cursor, 1, end_, field, "structure byte code (no RET before the model's end)");
      const std::uint8_t op = in_.u8(cursor);
      std::uint64_t length = sbc_length(op);
      if (length == 0) fail_at(cursor, "an SBC opcode of the NitroSystem table", fmt::format("{:#04x}", op));
      if (op == 0x09) {
        require_inside(cursor, 3, end_, cursor, "SBC NODEMIX");
        length = 3 + 3ull * in_.u8(cursor + 2);
      }
      if (length > end_ - cursor)  // the message is built only when needed: a model holds many commands
        require_inside(cursor, length, end_, cursor, fmt::format("SBC command {:#04x}", op));
      if ((op & 0x1F) == 0x06) describe_node(cursor);
      if (op == 0x02) out_.nodes[node_operand(cursor + 1, "NODE node")].visible = (in_.u8(cursor + 2) & 1) != 0;
      cursor += length;
      if (op == 0x01) break;
    }
    charge_parse_memory(cursor - at, 1, field, "structure byte code kept with the model");
    out_.sbc.reserve(cursor - at);
    for (std::uint64_t i = at; i < cursor; ++i) out_.sbc.push_back(in_.u8(i));
    for (std::size_t n = 0; n < out_.nodes.size(); ++n)
      if (!out_.nodes[n].has_descriptor)
        warnings_.push_back(fmt::format("model '{}': node {} has no NODEDESC (parent unknown)", out_.name, n));
  }

  void describe_node(std::uint64_t at) {
    const std::uint8_t node = node_operand(at + 1, "NODEDESC node");
    const std::uint8_t parent = node_operand(at + 2, "NODEDESC parent");
    ModelNode& described = out_.nodes[node];
    const std::optional<int> stated = parent == node ? std::nullopt : std::optional<int>(parent);
    if (described.has_descriptor) {
      // Once per node: a file repeating one command must not make a warning per repeat.
      if (described.parent != stated && !warned_twice_[node]) {
        warnings_.push_back(fmt::format("model '{}': node {} described again with another parent; the first kept",
                                        out_.name, node));
        warned_twice_[node] = true;
      }
      return;
    }
    described.has_descriptor = true;
    described.parent = stated;
  }

  const ByteReader& in_;
  std::uint64_t start_, end_;
  Model& out_;
  std::vector<std::string>& warnings_;
  std::array<bool, 256> warned_twice_{};  // per node (numNode is a byte)
};

}  // namespace

Matrix3 NodeBindPose::rotation_matrix() const {
  if (rotation == Rotation::identity) return kIdentity;
  if (rotation == Rotation::pivot) {
    // The same pivot form as BCA0's Rot3, its index and signs taken from this flag.
    const auto info = static_cast<std::uint16_t>(pivot_index() | ((flag >> 8) & 1) << 4 | ((flag >> 9) & 1) << 5 |
                                                 ((flag >> 10) & 1) << 6);
    return nsbca::decode_rot3({info, rotation_values[0], rotation_values[1]});
  }
  Matrix3 m{};
  m[0] = fx(m00);
  for (std::size_t i = 0; i < 8; ++i) m[i + 1] = fx(rotation_values[i]);
  return m;
}

Result<Bmd0File> parse_bmd0(std::span<const std::byte> bytes) {
  return catch_parse_failure<Bmd0File>([&] {
    const ByteReader in(bytes);
    Bmd0File file;
    const Block block = read_first_block(in, "BMD0", "MDL0", 2, file.warnings);
    file.version = in.u16(6, LE);
    for (const auto& entry : read_dictionary(in, block.start + 8, block.end, 4, 1, "model set", block.start + 8)) {
      Model model;
      model.name = entry.name;
      const std::uint64_t start = block.start + in.u32(entry.data, LE);
      require_inside(start, 0x40, block.end, entry.data, fmt::format("model '{}' header", entry.name));
      const std::uint64_t size = in.u32(start, LE);
      require_inside(start, size, block.end, start, fmt::format("model '{}'", entry.name));
      ModelReader(in, start, start + size, model, file.warnings).read();
      file.models.push_back(std::move(model));
    }
    return file;
  });
}

}  // namespace animdex::nitro
