#pragma once
// Writes BMA0 files from the parser's structs (tests, fuzzing) in the converter's layout: after the
// material dictionary, the arrays grouped as the runtime's fields are (diffuse and ambient of each
// material in turn, then specular and emission of each, then each alpha), colours 2-aligned, alpha
// bytes packed. Every real file is laid out so (write_bma0(parse(bytes)) == bytes). Offsets are
// 16-bit: an animation whose arrays do not fit in 64 KiB throws std::length_error.
#include "formats/nitro/bma0_parser.h"
#include "formats/nitro/nitro_writer.h"

namespace animdex::nitro {

Bytes write_bma0(const Bma0File& file);

// A constant (an RGB555 word or an alpha) with LAST_INTERP = frame_count as the converter writes it,
// an array of raw samples with a step (1, 2, 4) and LAST_INTERP (frame_count for step 1).
ColorValue color_constant(std::uint16_t value, int frame_count);
ColorValue color_array(std::vector<std::uint16_t> samples, int step, std::uint32_t last_interp);
std::uint16_t rgb555(int r, int g, int b);

}  // namespace animdex::nitro
