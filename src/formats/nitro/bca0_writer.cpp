#include "formats/nitro/bca0_writer.h"

#include <algorithm>
#include <map>

#include "core/byte_writer.h"
#include "formats/nitro/nitro_dictionary_tree.h"

namespace animdex::nsbca {

namespace {

void pad_to(ByteWriter& out, std::size_t alignment) {
  while (out.size() % alignment != 0) out.u8(0);
}

void patch_u16(std::vector<std::byte>& bytes, std::size_t at, std::uint16_t value) {
  bytes[at] = static_cast<std::byte>(value & 0xFF);
  bytes[at + 1] = static_cast<std::byte>(value >> 8);
}

void patch_u32(std::vector<std::byte>& bytes, std::size_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[at + static_cast<std::size_t>(i)] = static_cast<std::byte>((value >> (8 * i)) & 0xFF);
}

// Value arrays by category, in the order the corpus files store them.
enum Category { kRotation, kScale16, kTranslation16, kScale32, kTranslation32, kCategoryCount };

struct PendingArray {
  std::size_t offset_field;  // where the array's offset goes (absolute in the J.AC buffer)
  std::vector<std::byte> bytes;
};

std::vector<std::byte> axis_bytes(const AxisChannel& channel, bool is_scale) {
  ByteWriter out;
  for (std::size_t s = 0; s < channel.samples.size(); ++s) {
    if (channel.info.fx16()) {
      out.u16(static_cast<std::uint16_t>(channel.samples[s]), LE);
      if (is_scale) out.u16(static_cast<std::uint16_t>(s < channel.inverses.size() ? channel.inverses[s] : 0), LE);
    } else {
      out.u32(static_cast<std::uint32_t>(channel.samples[s]), LE);
      if (is_scale) out.u32(static_cast<std::uint32_t>(s < channel.inverses.size() ? channel.inverses[s] : 0), LE);
    }
  }
  return out.take();
}

std::vector<std::byte> write_animation(const JointAnimation& animation) {
  ByteWriter out;
  out.u8('J');
  out.u8(0);
  out.u8('A');
  out.u8('C');
  out.u16(animation.frame_count, LE);
  out.u16(static_cast<std::uint16_t>(animation.nodes.size()), LE);
  out.u32(animation.flags, LE);
  out.zeros(8);  // Rot3 and Rot5 offsets
  const std::size_t tag_table = out.size();
  out.zeros(2 * animation.nodes.size());
  pad_to(out, 4);
  std::array<std::vector<PendingArray>, kCategoryCount> arrays;
  std::vector<std::pair<std::size_t, std::uint16_t>> tag_offsets;
  for (const auto& node : animation.nodes) {
    tag_offsets.emplace_back(tag_table + 2 * tag_offsets.size(), static_cast<std::uint16_t>(out.size()));
    out.u32(node.tag, LE);
    if (node.tag & kTagIdentity) continue;
    const auto write_axes = [&](const std::array<AxisChannel, 3>& axes, std::uint32_t identity_bit,
                                std::uint32_t base_bit, std::uint32_t const_bit, bool is_scale) {
      if (node.tag & (identity_bit | base_bit)) return;
      for (int axis = 0; axis < 3; ++axis) {
        const auto& channel = axes[static_cast<std::size_t>(axis)];
        if (node.tag & (const_bit << axis)) {
          // An identity axis inside a mixed group is stored as its constant (0, or scale 1).
          const bool identity = channel.source == Source::identity;
          const std::int32_t value = identity ? (is_scale ? 4096 : 0) : channel.constant;
          out.u32(static_cast<std::uint32_t>(value), LE);
          if (is_scale) out.u32(static_cast<std::uint32_t>(identity ? 4096 : channel.constant_inverse), LE);
          continue;
        }
        out.u32(channel.info.word, LE);
        const Category category = is_scale ? (channel.info.fx16() ? kScale16 : kScale32)
                                           : (channel.info.fx16() ? kTranslation16 : kTranslation32);
        arrays[category].push_back({out.size(), axis_bytes(channel, is_scale)});
        out.u32(0, LE);
      }
    };
    write_axes(node.translation, kTagIdentityT, kTagBaseT, kTagConstTx, false);
    if (!(node.tag & (kTagIdentityR | kTagBaseR))) {
      if (node.tag & kTagConstR) {
        out.u32(node.rotation.constant_word, LE);
      } else {
        out.u32(node.rotation.info.word, LE);
        ByteWriter indices;
        for (const auto index : node.rotation.indices) indices.u16(index, LE);
        arrays[kRotation].push_back({out.size(), indices.take()});
        out.u32(0, LE);
      }
    }
    write_axes(node.scale, kTagIdentityS, kTagBaseS, kTagConstSx, true);
  }
  const std::size_t rot3_offset = out.size();
  for (const auto& entry : animation.rot3) {
    out.u16(entry.info, LE);
    out.u16(static_cast<std::uint16_t>(entry.a), LE);
    out.u16(static_cast<std::uint16_t>(entry.b), LE);
  }
  pad_to(out, 4);
  const std::size_t rot5_offset = out.size();
  for (const auto& entry : animation.rot5)
    for (const auto word : entry.d) out.u16(word, LE);
  pad_to(out, 4);
  // Identical arrays of a category are stored once and shared (as in the corpus).
  std::vector<std::pair<std::size_t, std::uint32_t>> array_offsets;
  for (int category = 0; category < kCategoryCount; ++category) {
    pad_to(out, category == kRotation || category == kTranslation16 ? 2 : 4);  // element alignment
    std::map<std::vector<std::byte>, std::uint32_t> written;
    for (const auto& array : arrays[static_cast<std::size_t>(category)]) {
      const auto [found, inserted] = written.try_emplace(array.bytes, static_cast<std::uint32_t>(out.size()));
      if (inserted) out.append(array.bytes);
      array_offsets.emplace_back(array.offset_field, found->second);
    }
  }
  pad_to(out, 4);
  auto bytes = out.take();
  patch_u32(bytes, 0x0C, static_cast<std::uint32_t>(rot3_offset));
  patch_u32(bytes, 0x10, static_cast<std::uint32_t>(rot5_offset));
  for (const auto& [field, offset] : tag_offsets) patch_u16(bytes, field, offset);
  for (const auto& [field, offset] : array_offsets) patch_u32(bytes, field, offset);
  return bytes;
}

}  // namespace

std::uint32_t tag_for(const NodeAnimation& node, int node_id) {
  const auto all = [](const std::array<AxisChannel, 3>& axes, Source source) {
    return std::all_of(axes.begin(), axes.end(), [&](const AxisChannel& axis) { return axis.source == source; });
  };
  std::uint32_t tag = static_cast<std::uint32_t>(node_id & 0xFF) << 24;
  if (all(node.translation, Source::identity) && node.rotation.source == Source::identity &&
      all(node.scale, Source::identity))
    return tag | kTagIdentity;
  const auto axes_bits = [&](const std::array<AxisChannel, 3>& axes, std::uint32_t identity_bit, std::uint32_t base_bit,
                             std::uint32_t const_bit) {
    if (all(axes, Source::identity)) return identity_bit;
    if (all(axes, Source::base)) return base_bit;
    // Per axis the format has only constant or animated; other sources become constants.
    std::uint32_t bits = 0;
    for (int axis = 0; axis < 3; ++axis)
      if (axes[static_cast<std::size_t>(axis)].source != Source::animated) bits |= const_bit << axis;
    return bits;
  };
  tag |= axes_bits(node.translation, kTagIdentityT, kTagBaseT, kTagConstTx);
  tag |= axes_bits(node.scale, kTagIdentityS, kTagBaseS, kTagConstSx);
  switch (node.rotation.source) {
    case Source::identity: tag |= kTagIdentityR; break;
    case Source::base: tag |= kTagBaseR; break;
    case Source::constant: tag |= kTagConstR; break;
    default: break;
  }
  return tag;
}

std::vector<std::byte> write_nsbca(const NsbcaFile& file) {
  const std::size_t count = file.animations.size();
  std::vector<std::string> names;
  for (const auto& animation : file.animations) names.push_back(animation.name.substr(0, 16));
  const auto tree = nitro::converter_dictionary_tree(names);
  ByteWriter out;
  out.u8('B'), out.u8('C'), out.u8('A'), out.u8('0');
  out.u16(0xFEFF, LE);
  out.u16(file.version, LE);
  out.u32(0, LE);  // file size, patched
  out.u16(0x10, LE);
  out.u16(1, LE);
  out.u32(0x14, LE);
  const std::size_t block = out.size();
  out.u8('J'), out.u8('N'), out.u8('T'), out.u8('0');
  out.u32(0, LE);  // block size, patched
  const std::size_t entry_offset = 8 + 4 * (count + 1);
  const std::size_t dict_size = entry_offset + 4 + 4 * count + 16 * count;
  out.u8(0);
  out.u8(static_cast<std::uint8_t>(count));
  out.u16(static_cast<std::uint16_t>(dict_size), LE);
  out.u16(8, LE);
  out.u16(static_cast<std::uint16_t>(entry_offset), LE);
  for (const auto& node : tree) out.u8(node.ref_bit), out.u8(node.left), out.u8(node.right), out.u8(node.entry);
  out.u16(4, LE);
  out.u16(static_cast<std::uint16_t>(4 + 4 * count), LE);
  const std::size_t data = out.size();
  out.zeros(4 * count);
  for (const auto& name : names) {
    for (std::size_t c = 0; c < 16; ++c) out.u8(c < name.size() ? static_cast<std::uint8_t>(name[c]) : 0);
  }
  std::vector<std::uint32_t> starts;
  for (const auto& animation : file.animations) {
    pad_to(out, 4);
    starts.push_back(static_cast<std::uint32_t>(out.size() - block));
    out.append(write_animation(animation));
  }
  auto bytes = out.take();
  for (std::size_t e = 0; e < count; ++e) patch_u32(bytes, data + 4 * e, starts[e]);
  patch_u32(bytes, 8, static_cast<std::uint32_t>(bytes.size()));
  patch_u32(bytes, block + 4, static_cast<std::uint32_t>(bytes.size() - block));
  return bytes;
}

}  // namespace animdex::nsbca
