#pragma once
// Writes BTA0 files from the parser's structs (tests, fuzzing) in the converter's layout: after the
// material dictionary, per material and part in order, a constant's value (fx16 and 2 zero bytes
// when FX16 is set, else 4 bytes; unreferenced, the converter writes it) or the part's array, each
// padded to 4 bytes. Every real file is laid out so (write_bta0(parse(bytes)) == bytes).
#include "formats/nitro/bta0_parser.h"
#include "formats/nitro/nitro_writer.h"

namespace animdex::nitro {

Bytes write_bta0(const Bta0File& file);

// Values for the builders' callers: a constant (`value` is the fx32 `ex`; FX16 set as the converter
// sets it on scale and translation constants), an array of raw samples with a step (1, 2, 4) and
// LAST_INTERP (frame_count for step 1), a constant rotation from fx16 sin and cos.
SrtValue srt_constant(std::int32_t value, bool fx16_flag, int frame_count);
SrtValue srt_array(std::vector<std::int32_t> samples, bool fx16, int step, std::uint32_t last_interp);
SrtValue srt_rotation_constant(std::int16_t sin, std::int16_t cos, int frame_count);
std::int32_t sin_cos_word(std::int16_t sin, std::int16_t cos);

}  // namespace animdex::nitro
