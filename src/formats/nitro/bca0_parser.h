#pragma once
// Parses a whole BCA0 file (Nitro header, JNT0 block, resource dictionary, every J.AC) and checks
// every rule of nsbca.md "Validation"; errors name absolute offsets.
#include <cstddef>
#include <span>

#include "core/result.h"
#include "formats/nitro/bca0_types.h"

namespace animdex::nsbca {

Result<NsbcaFile> parse_nsbca(std::span<const std::byte> bytes);

}  // namespace animdex::nsbca
