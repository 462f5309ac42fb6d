#pragma once
// NSBCA detection: the magic BCA0 (the parser checks the rest, so a damaged file is an error).
#include "formats/format.h"

namespace animdex::nsbca {

bool detect_nsbca(std::span<const std::byte> head, std::uint64_t file_size);
FormatModule format_module();

}  // namespace animdex::nsbca
