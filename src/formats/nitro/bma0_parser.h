#pragma once
// BMA0 (material colour animation, `.nsbma`; nitro-models-and-anims.md section 6): per animation and
// material, five values (diffuse, ambient, specular, emission as RGB555; polygon alpha 0..31), each a
// constant or an array sampled every 1, 2 or 4 frames. Bound to the model's materials by name.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "formats/nitro/nitro_steps.h"

namespace animdex::nitro {

inline constexpr std::uint32_t kColorConst = 1u << 29;  // info word: the low 16 bits are the value

// Which of a material's five values (the order of the dictionary entry's info words).
enum ColorPart : std::size_t { kDiffuse, kAmbient, kSpecular, kEmission, kAlpha };

struct ColorValue {
  std::uint32_t info = 0;  // as stored: CONST bit 29, step bits 30-31, LAST_INTERP bits 16-28, value or offset
                           // bits 0-15; an array's offset bits are cleared (the layout is the writer's)
  std::vector<std::uint16_t> samples;  // an array's raw samples: RGB555 words, or alpha bytes

  bool is_constant() const { return (info & kColorConst) != 0; }
  std::uint16_t constant() const { return static_cast<std::uint16_t>(info & 0xFFFF); }
  Steps steps() const { return {info >> 30, (info >> 16) & 0x1FFF}; }
  bool operator==(const ColorValue&) const = default;
};

struct ColorMaterial {
  std::string name;
  std::array<ColorValue, 5> values;  // indexed by ColorPart
  bool operator==(const ColorMaterial&) const = default;
};

struct MatColorAnimation {
  std::string name;
  std::uint16_t frame_count = 0;  // numFrame: frames 0..frame_count-1
  std::uint16_t flag = 0;         // bit0 interpolation, bit1 end-to-start (playback options)
  std::vector<ColorMaterial> materials;  // the material dictionary's order (may be empty)
  bool operator==(const MatColorAnimation&) const = default;
};

struct Bma0File {
  std::uint16_t version = 1;
  std::vector<MatColorAnimation> animations;
  std::vector<std::string> warnings;
};

Result<Bma0File> parse_bma0(std::span<const std::byte> bytes);

// A colour at an integer frame: R, G, B (0..31 each), each channel blended on its own with floor.
std::array<std::int64_t, 3> rgb_at(const ColorValue& value, int frame);
// The polygon alpha (or a constant's stored value) at an integer frame.
std::int64_t alpha_at(const ColorValue& value, int frame);

}  // namespace animdex::nitro
