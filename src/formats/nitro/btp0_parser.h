#pragma once
// BTP0 (texture pattern animation, `.nsbtp`; nitro-models-and-anims.md section 5): per animation a
// table of texture names and one of palette names, and per material keys (frame, texture index,
// palette index) that switch the material's texture and palette: a step function, no interpolation.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"

namespace animdex::nitro {

inline constexpr std::uint8_t kKeepPalette = 255;  // a key's palette index that leaves the palette unchanged

struct PatternKey {  // FV
  std::uint16_t frame = 0;
  std::uint8_t texture = 0;  // index into TexPatternAnimation::textures
  std::uint8_t palette = 0;  // index into TexPatternAnimation::palettes, or kKeepPalette
  bool operator==(const PatternKey&) const = default;
};

struct PatternMaterial {
  std::string name;
  std::uint16_t flag = 0;   // bit0 NOPLTT (no palette)
  std::uint16_t ratio = 0;  // ratioDataFrame as stored: fx16 numFV/numFrame, the runtime's search hint
  std::vector<PatternKey> keys;  // at least one, frames strictly increasing
  bool operator==(const PatternMaterial&) const = default;
};

struct TexPatternAnimation {
  std::string name;
  std::uint16_t frame_count = 0;       // numFrame: frames 0..frame_count-1
  std::vector<std::string> textures;   // numTex names (resolved in the model's or a BTX0's TEX0)
  std::vector<std::string> palettes;   // numPltt names
  std::vector<PatternMaterial> materials;  // the material dictionary's order (may be empty)
  bool operator==(const TexPatternAnimation&) const = default;
};

struct Btp0File {
  std::uint16_t version = 1;
  std::vector<TexPatternAnimation> animations;
  std::vector<std::string> warnings;
};

Result<Btp0File> parse_btp0(std::span<const std::byte> bytes);

// The index of the key in effect at `frame`: the last with frame <= `frame`, key 0 when none is.
std::size_t pattern_key_at(const PatternMaterial& material, int frame);

}  // namespace animdex::nitro
