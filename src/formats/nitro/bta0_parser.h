#pragma once
// BTA0 (texture SRT animation, `.nsbta`; nitro-models-and-anims.md section 4): per animation and
// material, five values (scaleS, scaleT, rotation, transS, transT), each a constant or an array
// sampled every 1, 2 or 4 frames. Bound to the model's materials by name.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "formats/nitro/nitro_steps.h"

namespace animdex::nitro {

// Info word bits (section 4).
inline constexpr std::uint32_t kSrtFx16 = 1u << 28, kSrtConst = 1u << 29;

// Which of a material's five values.
enum SrtPart : std::size_t { kScaleS, kScaleT, kRotation, kTransS, kTransT };

// One (info, ex) pair: a constant, or an array of raw samples.
struct SrtValue {
  std::uint32_t info = 0;      // as stored: FX16 bit 28, CONST bit 29, step bits 30-31, LAST_INTERP bits 0-15
  std::uint32_t constant = 0;  // CONST: `ex`, the value (fx32; rotation: sin low 16 bits, cos high 16 bits);
                               // 0 for an array (its offset is the writer's layout, not kept)
  std::vector<std::int32_t> samples;  // an array's raw samples: fx16 (widened) or fx32; rotation: the 4-byte
                                      // (sin, cos) pair as one word, sin in the low 16 bits

  bool is_constant() const { return (info & kSrtConst) != 0; }
  bool fx16() const { return (info & kSrtFx16) != 0; }
  Steps steps() const { return {info >> 30, info & 0xFFFF}; }
  bool operator==(const SrtValue&) const = default;
};

struct SrtMaterial {
  std::string name;
  std::array<SrtValue, 5> values;  // indexed by SrtPart
  bool operator==(const SrtMaterial&) const = default;
};

struct TexSrtAnimation {
  std::string name;
  std::uint16_t frame_count = 0;  // numFrame: frames 0..frame_count-1
  std::uint8_t flag = 0;          // bit0 interpolation, bit1 end-to-start (playback options)
  std::uint8_t tex_mtx_mode = 0;  // texture matrix mode (0 Maya in every known file)
  std::vector<SrtMaterial> materials;  // the material dictionary's order (may be empty)
  bool operator==(const TexSrtAnimation&) const = default;
};

struct Bta0File {
  std::uint16_t version = 1;
  std::vector<TexSrtAnimation> animations;
  std::vector<std::string> warnings;
};

Result<Bta0File> parse_bta0(std::span<const std::byte> bytes);

// A value at an integer frame, converted (/4096): scale and translation parts.
double srt_scalar_at(const SrtValue& value, int frame);
// The rotation's (sin, cos) at an integer frame, each blended on its own (no renormalisation).
std::array<double, 2> srt_sin_cos_at(const SrtValue& value, int frame);

}  // namespace animdex::nitro
