#include "formats/nitro/nitro_writer.h"

#include "formats/nitro/nitro_dictionary_tree.h"

namespace animdex::nitro {

void put_u8(Bytes& out, std::uint8_t value) { out.push_back(static_cast<std::byte>(value)); }
void put_u16(Bytes& out, std::uint16_t value) {
  put_u8(out, static_cast<std::uint8_t>(value));
  put_u8(out, static_cast<std::uint8_t>(value >> 8));
}
void put_u32(Bytes& out, std::uint32_t value) {
  put_u16(out, static_cast<std::uint16_t>(value));
  put_u16(out, static_cast<std::uint16_t>(value >> 16));
}
void put_text(Bytes& out, std::string_view text) {
  for (char c : text) put_u8(out, static_cast<std::uint8_t>(c));
}
void put_name16(Bytes& out, const std::string& name) {
  for (std::size_t i = 0; i < 16; ++i) put_u8(out, i < name.size() ? static_cast<std::uint8_t>(name[i]) : 0);
}
void pad_to_4(Bytes& out) {
  while (out.size() % 4) put_u8(out, 0);
}
void patch_u16(Bytes& out, std::size_t at, std::uint16_t value) {
  out[at] = static_cast<std::byte>(value & 0xFF);
  out[at + 1] = static_cast<std::byte>(value >> 8);
}
void patch_u32(Bytes& out, std::size_t at, std::uint32_t value) {
  patch_u16(out, at, static_cast<std::uint16_t>(value));
  patch_u16(out, at + 2, static_cast<std::uint16_t>(value >> 16));
}

Bytes dictionary_bytes(const std::vector<std::string>& names, std::uint16_t unit_size, const std::vector<Bytes>& data) {
  const std::size_t count = names.size();
  Bytes out;
  const std::uint16_t entry_offset = static_cast<std::uint16_t>(8 + 4 * (count + 1));
  put_u8(out, 0);
  put_u8(out, static_cast<std::uint8_t>(count));
  put_u16(out, static_cast<std::uint16_t>(entry_offset + 4 + (unit_size + 16) * count));
  put_u16(out, 8);  // the tree right after this header
  put_u16(out, entry_offset);
  for (const auto& node : converter_dictionary_tree(names)) {
    put_u8(out, node.ref_bit);
    put_u8(out, node.left);
    put_u8(out, node.right);
    put_u8(out, node.entry);
  }
  out.resize(entry_offset, std::byte{0});  // the tree has count + 1 nodes
  put_u16(out, unit_size);
  put_u16(out, static_cast<std::uint16_t>(4 + unit_size * count));
  for (const auto& entry : data) out.insert(out.end(), entry.begin(), entry.end());
  for (const auto& name : names) put_name16(out, name);
  return out;
}

Bytes block_bytes(std::string_view block_magic, const Bytes& body) {
  Bytes out;
  put_text(out, block_magic);
  put_u32(out, 0);
  out.insert(out.end(), body.begin(), body.end());
  pad_to_4(out);
  patch_u32(out, 4, static_cast<std::uint32_t>(out.size()));
  return out;
}

Bytes file_bytes(std::string_view file_magic, std::uint16_t version, const std::vector<Bytes>& blocks) {
  Bytes out;
  put_text(out, file_magic);
  put_u16(out, 0xFEFF);
  put_u16(out, version);
  put_u32(out, 0);  // file size, patched below
  put_u16(out, 0x10);
  put_u16(out, static_cast<std::uint16_t>(blocks.size()));
  std::size_t at = 0x10 + 4 * blocks.size();
  for (const auto& block : blocks) {
    put_u32(out, static_cast<std::uint32_t>(at));
    at += block.size();
  }
  for (const auto& block : blocks) out.insert(out.end(), block.begin(), block.end());
  patch_u32(out, 8, static_cast<std::uint32_t>(out.size()));
  return out;
}

Bytes animation_file_bytes(std::string_view file_magic, std::string_view block_magic,
                           const std::vector<std::pair<std::string, Bytes>>& animations) {
  std::vector<std::string> names;
  for (const auto& [name, bytes] : animations) names.push_back(name);
  // The dictionary's size does not depend on its data, so offsets follow from a first layout.
  const std::size_t dictionary_size = dictionary_bytes(names, 4, std::vector<Bytes>(names.size(), Bytes(4))).size();
  std::size_t at = 8 + dictionary_size;
  at = (at + 3) / 4 * 4;
  std::vector<Bytes> offsets;
  Bytes body_tail;
  for (const auto& [name, bytes] : animations) {
    Bytes offset;
    put_u32(offset, static_cast<std::uint32_t>(at + body_tail.size()));
    offsets.push_back(offset);
    body_tail.insert(body_tail.end(), bytes.begin(), bytes.end());
    pad_to_4(body_tail);
  }
  Bytes body = dictionary_bytes(names, 4, offsets);
  while ((8 + body.size()) % 4) put_u8(body, 0);
  body.insert(body.end(), body_tail.begin(), body_tail.end());
  return file_bytes(file_magic, 1, {block_bytes(block_magic, body)});
}

}  // namespace animdex::nitro
