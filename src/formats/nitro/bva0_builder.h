#pragma once
// Writes BVA0 files from the parser's structs (tests, the sample): the runtime's layout.
#include "formats/nitro/bva0_parser.h"
#include "formats/nitro/nitro_writer.h"

namespace animdex::nitro {

Bytes write_bva0(const Bva0File& file);

// An animation whose `visible[frame][node]` says what is shown.
VisibilityAnimation visibility_animation(const std::string& name, const std::vector<std::vector<bool>>& visible);

}  // namespace animdex::nitro
