#pragma once
// Writes BTP0 files from the parser's structs (tests, fuzzing) in the converter's layout: after the
// material dictionary, each material's keys in dictionary order, then the texture names, then the
// palette names. Every real file is laid out so (write_btp0(parse(bytes)) == bytes). Offsets are
// 16-bit: an animation whose keys and names do not fit in 64 KiB throws std::length_error.
#include "formats/nitro/btp0_parser.h"
#include "formats/nitro/nitro_writer.h"

namespace animdex::nitro {

Bytes write_btp0(const Btp0File& file);

// A material whose keys are (frame, texture, palette); ratio = numFV / frame_count in fx16, as the
// converter writes it.
PatternMaterial pattern_material(const std::string& name, int frame_count, std::vector<PatternKey> keys);

}  // namespace animdex::nitro
