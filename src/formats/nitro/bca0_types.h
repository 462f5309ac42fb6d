#pragma once
// NSBCA (BCA0) structures as stored (nsbca.md): fixed-point values are kept raw so the writer can
// reproduce them; decoding to floats and matrices lives in bca0_decode.h.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/nitro/nitro_steps.h"

namespace animdex::nsbca {

// Node tag bits (nsbca.md "Node tag").
inline constexpr std::uint32_t kTagIdentity = 1u << 0;
inline constexpr std::uint32_t kTagIdentityT = 1u << 1;
inline constexpr std::uint32_t kTagBaseT = 1u << 2;
inline constexpr std::uint32_t kTagConstTx = 1u << 3;  // Ty, Tz: bits 4, 5
inline constexpr std::uint32_t kTagIdentityR = 1u << 6;
inline constexpr std::uint32_t kTagBaseR = 1u << 7;
inline constexpr std::uint32_t kTagConstR = 1u << 8;
inline constexpr std::uint32_t kTagIdentityS = 1u << 9;
inline constexpr std::uint32_t kTagBaseS = 1u << 10;
inline constexpr std::uint32_t kTagConstSx = 1u << 11;  // Sy, Sz: bits 12, 13
inline constexpr std::uint32_t kTagReservedBits = 0x00FFC000u;  // bits 14-23, zero in files

// Where a channel's values come from.
enum class Source { identity, base, constant, animated };
const char* source_name(Source source);

// Track info word of an animated channel (nsbca.md "Track info word").
struct TrackInfo {
  std::uint32_t word = 0;
  std::uint32_t last_interp() const { return (word >> 16) & 0x1FFF; }
  bool fx16() const { return (word >> 29) & 1; }
  std::uint32_t step_code() const { return word >> 30; }  // 0, 1, 2 (3 is invalid)
  int step() const { return 1 << step_code(); }
  nitro::Steps steps() const { return {step_code(), last_interp()}; }  // as stored, for the runtime's reads
  static TrackInfo make(int step, bool fx16, std::uint32_t last_interp);
};

// One axis of T or S. Values are raw fixed point: fx32 as stored, fx16 widened (both / 4096).
struct AxisChannel {
  Source source = Source::identity;
  std::int32_t constant = 0;          // T value, or S scale
  std::int32_t constant_inverse = 0;  // S only: stored 1/scale
  TrackInfo info;
  std::uint32_t offset = 0;           // array offset from the J.AC start
  std::vector<std::int32_t> samples;  // T values or S scales
  std::vector<std::int32_t> inverses; // S only
};

struct RotationChannel {
  Source source = Source::identity;
  std::uint32_t constant_word = 0;    // low 16 bits: the rotation index
  TrackInfo info;
  std::uint32_t offset = 0;
  std::vector<std::uint16_t> indices; // rotation index per sample
};

struct NodeAnimation {
  std::uint32_t tag = 0;
  std::array<AxisChannel, 3> translation;
  RotationChannel rotation;
  std::array<AxisChannel, 3> scale;
  int node_id() const { return static_cast<int>(tag >> 24); }
};

struct Rot3Entry {  // pivot-compressed
  std::uint16_t info = 0;
  std::int16_t a = 0, b = 0;
};
struct Rot5Entry {  // basis-compressed
  std::array<std::uint16_t, 5> d{};
};

struct JointAnimation {
  std::string name;               // from the dictionary (up to 16 bytes)
  std::uint16_t frame_count = 0;  // numFrame
  std::uint32_t flags = 0;        // bit0 interpolation, bit1 end-to-start interpolation
  std::vector<NodeAnimation> nodes;
  std::vector<Rot3Entry> rot3;
  std::vector<Rot5Entry> rot5;
};

struct NsbcaFile {
  std::uint16_t version = 1;
  std::vector<JointAnimation> animations;
  std::vector<std::string> warnings;
};

// The steps BCA0 sizes an array by: the family's rule (nitro_steps.h) at the regular LAST_INTERP,
// whatever the track stores. nsbca.md counts samples from numFrame alone, so a hostile LAST_INTERP
// (a warning) cannot change how much is read; BTA0 and BMA0 size by the stored one, as their note says.
nitro::Steps sized_steps(int frame_count, int step);

// Samples an animated channel stores: frames 0, s, 2s, ... then every frame after LAST_INTERP.
std::size_t sample_count(int frame_count, int step);

}  // namespace animdex::nsbca
