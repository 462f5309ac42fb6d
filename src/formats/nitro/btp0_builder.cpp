#include "formats/nitro/btp0_builder.h"

#include <stdexcept>

#include <fmt/format.h>

namespace animdex::nitro {

namespace {

using namespace std::string_view_literals;

std::uint16_t offset16(std::size_t offset, const std::string& animation) {
  if (offset > 0xFFFF)
    throw std::length_error(
        fmt::format("BTP0 animation '{}': offset {:#x} past the 16-bit offsets", animation, offset));
  return static_cast<std::uint16_t>(offset);
}

Bytes animation_bytes(const TexPatternAnimation& animation) {
  std::vector<std::string> names;
  for (const auto& material : animation.materials) names.push_back(material.name);
  const std::size_t dictionary_size = dictionary_bytes(names, 8, std::vector<Bytes>(names.size(), Bytes(8))).size();
  std::size_t at = 12 + dictionary_size;  // the keys follow the dictionary
  std::vector<Bytes> entries;
  Bytes keys;
  for (const auto& material : animation.materials) {
    Bytes entry;
    put_u16(entry, static_cast<std::uint16_t>(material.keys.size()));
    put_u16(entry, material.flag);
    put_u16(entry, material.ratio);
    put_u16(entry, offset16(at + keys.size(), animation.name));
    entries.push_back(std::move(entry));
    for (const auto& key : material.keys) {
      put_u16(keys, key.frame);
      put_u8(keys, key.texture);
      put_u8(keys, key.palette);
    }
  }
  const std::size_t textures_at = at + keys.size(), palettes_at = textures_at + 16 * animation.textures.size();
  Bytes bytes;
  put_text(bytes, "M\0PT"sv);
  put_u16(bytes, animation.frame_count);
  put_u8(bytes, static_cast<std::uint8_t>(animation.textures.size()));
  put_u8(bytes, static_cast<std::uint8_t>(animation.palettes.size()));
  put_u16(bytes, offset16(textures_at, animation.name));
  put_u16(bytes, offset16(palettes_at, animation.name));
  const Bytes dictionary = dictionary_bytes(names, 8, entries);
  bytes.insert(bytes.end(), dictionary.begin(), dictionary.end());
  bytes.insert(bytes.end(), keys.begin(), keys.end());
  for (const auto& name : animation.textures) put_name16(bytes, name);
  for (const auto& name : animation.palettes) put_name16(bytes, name);
  return bytes;
}

}  // namespace

Bytes write_btp0(const Btp0File& file) {
  std::vector<std::pair<std::string, Bytes>> animations;
  for (const auto& animation : file.animations) animations.emplace_back(animation.name, animation_bytes(animation));
  return animation_file_bytes("BTP0", "PAT0", animations);
}

PatternMaterial pattern_material(const std::string& name, int frame_count, std::vector<PatternKey> keys) {
  const auto ratio = static_cast<std::uint16_t>(keys.size() * 4096 / static_cast<std::size_t>(frame_count));
  return {name, 0, ratio, std::move(keys)};
}

}  // namespace animdex::nitro
