#include "formats/nitro/bta0_builder.h"

namespace animdex::nitro {

namespace {

using namespace std::string_view_literals;

std::uint32_t step_bits(int step) { return step == 4 ? 2u << 30 : step == 2 ? 1u << 30 : 0u; }

// The value area (offsets from the animation's first byte, starting at `at`) and each value's `ex`.
struct ValueArea {
  Bytes bytes;
  std::vector<std::uint32_t> ex;  // per material, 5 each
};

ValueArea value_area(const TexSrtAnimation& animation, std::size_t at) {
  ValueArea area;
  for (const auto& material : animation.materials)
    for (std::size_t part = 0; part < 5; ++part) {
      const SrtValue& value = material.values[part];
      const bool fx16 = value.fx16() && part != kRotation;
      if (value.is_constant()) {
        area.ex.push_back(value.constant);
        if (fx16) put_u16(area.bytes, static_cast<std::uint16_t>(value.constant));
        else put_u32(area.bytes, value.constant);
      } else {
        area.ex.push_back(static_cast<std::uint32_t>(at + area.bytes.size()));
        for (const auto sample : value.samples) {
          if (fx16) put_u16(area.bytes, static_cast<std::uint16_t>(sample));
          else put_u32(area.bytes, static_cast<std::uint32_t>(sample));
        }
      }
      pad_to_4(area.bytes);
    }
  return area;
}

Bytes animation_bytes(const TexSrtAnimation& animation) {
  std::vector<std::string> names;
  for (const auto& material : animation.materials) names.push_back(material.name);
  // The dictionary's size does not depend on its data: lay it out once to place the values.
  const std::size_t dictionary_size =
      dictionary_bytes(names, 40, std::vector<Bytes>(names.size(), Bytes(40))).size();
  const ValueArea area = value_area(animation, 8 + dictionary_size);
  std::vector<Bytes> entries;
  for (std::size_t m = 0; m < animation.materials.size(); ++m) {
    Bytes entry;
    for (std::size_t part = 0; part < 5; ++part) {
      put_u32(entry, animation.materials[m].values[part].info);
      put_u32(entry, area.ex[5 * m + part]);
    }
    entries.push_back(std::move(entry));
  }
  Bytes bytes;
  put_text(bytes, "M\0AT"sv);
  put_u16(bytes, animation.frame_count);
  put_u8(bytes, animation.flag);
  put_u8(bytes, animation.tex_mtx_mode);
  const Bytes dictionary = dictionary_bytes(names, 40, entries);
  bytes.insert(bytes.end(), dictionary.begin(), dictionary.end());
  bytes.insert(bytes.end(), area.bytes.begin(), area.bytes.end());
  return bytes;
}

}  // namespace

Bytes write_bta0(const Bta0File& file) {
  std::vector<std::pair<std::string, Bytes>> animations;
  for (const auto& animation : file.animations) animations.emplace_back(animation.name, animation_bytes(animation));
  return animation_file_bytes("BTA0", "SRT0", animations);
}

SrtValue srt_constant(std::int32_t value, bool fx16_flag, int frame_count) {
  return {kSrtConst | (fx16_flag ? kSrtFx16 : 0u) | static_cast<std::uint32_t>(frame_count),
          static_cast<std::uint32_t>(value),
          {}};
}

SrtValue srt_array(std::vector<std::int32_t> samples, bool fx16, int step, std::uint32_t last_interp) {
  return {(fx16 ? kSrtFx16 : 0u) | step_bits(step) | (last_interp & 0xFFFF), 0, std::move(samples)};
}

std::int32_t sin_cos_word(std::int16_t sin, std::int16_t cos) {
  const auto low = static_cast<std::uint32_t>(static_cast<std::uint16_t>(sin));
  const auto high = static_cast<std::uint32_t>(static_cast<std::uint16_t>(cos));
  return static_cast<std::int32_t>(low | high << 16);
}

SrtValue srt_rotation_constant(std::int16_t sin, std::int16_t cos, int frame_count) {
  return {kSrtConst | static_cast<std::uint32_t>(frame_count), static_cast<std::uint32_t>(sin_cos_word(sin, cos)), {}};
}

}  // namespace animdex::nitro
