#include "formats/gnt_mot/gnt_mot_types.h"

#include <bit>
#include <cmath>

namespace animdex::gnt_mot {

std::uint16_t encode_bf16(float value) {
  return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(value) >> 16);
}

std::uint32_t encode_coordinate(float value, CoordinateEncoding encoding) {
  return encoding == CoordinateEncoding::bf16 ? encode_bf16(value) : std::bit_cast<std::uint32_t>(value);
}

}  // namespace animdex::gnt_mot
