#include "formats/nitro/bma0_builder.h"

#include <stdexcept>

#include <fmt/format.h>

namespace animdex::nitro {

namespace {

using namespace std::string_view_literals;

std::uint32_t step_bits(int step) { return step == 4 ? 2u << 30 : step == 2 ? 1u << 30 : 0u; }

// The runtime's fields the values go to, in the order the converter writes their arrays: diffAmb,
// specEmi, polyAttr (alpha).
const std::vector<std::vector<std::size_t>> kGroups = {{kDiffuse, kAmbient}, {kSpecular, kEmission}, {kAlpha}};

// The arrays after the dictionary (offsets from the animation's first byte, starting at `at`) and
// each value's info word with its offset filled in.
struct ValueArea {
  Bytes bytes;
  std::vector<std::uint32_t> info;  // per material, 5 each
};

ValueArea value_area(const MatColorAnimation& animation, std::size_t at) {
  ValueArea area;
  for (const auto& material : animation.materials)
    for (const auto& value : material.values) area.info.push_back(value.info);
  for (const auto& group : kGroups)
    for (std::size_t m = 0; m < animation.materials.size(); ++m)
      for (const std::size_t part : group) {
        const ColorValue& value = animation.materials[m].values[part];
        if (value.is_constant()) continue;
        if (part != kAlpha && area.bytes.size() % 2) put_u8(area.bytes, 0);
        const std::size_t offset = at + area.bytes.size();
        if (offset > 0xFFFF)
          throw std::length_error(fmt::format("BMA0 animation '{}': array at {:#x}, past the 16-bit offsets",
                                              animation.name, offset));
        area.info[5 * m + part] = (value.info & ~0xFFFFu) | static_cast<std::uint32_t>(offset);
        for (const auto sample : value.samples) {
          if (part == kAlpha) put_u8(area.bytes, static_cast<std::uint8_t>(sample));
          else put_u16(area.bytes, sample);
        }
      }
  return area;
}

Bytes animation_bytes(const MatColorAnimation& animation) {
  std::vector<std::string> names;
  for (const auto& material : animation.materials) names.push_back(material.name);
  const std::size_t dictionary_size = dictionary_bytes(names, 20, std::vector<Bytes>(names.size(), Bytes(20))).size();
  const ValueArea area = value_area(animation, 8 + dictionary_size);
  std::vector<Bytes> entries;
  for (std::size_t m = 0; m < animation.materials.size(); ++m) {
    Bytes entry;
    for (std::size_t part = 0; part < 5; ++part) put_u32(entry, area.info[5 * m + part]);
    entries.push_back(std::move(entry));
  }
  Bytes bytes;
  put_text(bytes, "M\0AM"sv);
  put_u16(bytes, animation.frame_count);
  put_u16(bytes, animation.flag);
  const Bytes dictionary = dictionary_bytes(names, 20, entries);
  bytes.insert(bytes.end(), dictionary.begin(), dictionary.end());
  bytes.insert(bytes.end(), area.bytes.begin(), area.bytes.end());
  return bytes;
}

}  // namespace

Bytes write_bma0(const Bma0File& file) {
  std::vector<std::pair<std::string, Bytes>> animations;
  for (const auto& animation : file.animations) animations.emplace_back(animation.name, animation_bytes(animation));
  return animation_file_bytes("BMA0", "MAT0", animations);
}

ColorValue color_constant(std::uint16_t value, int frame_count) {
  return {kColorConst | (static_cast<std::uint32_t>(frame_count & 0x1FFF) << 16) | value, {}};
}

ColorValue color_array(std::vector<std::uint16_t> samples, int step, std::uint32_t last_interp) {
  return {step_bits(step) | ((last_interp & 0x1FFF) << 16), std::move(samples)};
}

std::uint16_t rgb555(int r, int g, int b) {
  return static_cast<std::uint16_t>((r & 0x1F) | ((g & 0x1F) << 5) | ((b & 0x1F) << 10));
}

}  // namespace animdex::nitro
