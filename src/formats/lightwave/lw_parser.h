#pragma once
#include <cstddef>
#include <span>

#include "core/result.h"
#include "formats/lightwave/lw_types.h"

namespace animdex::lightwave {

// LWMO/LWEN versions 1 and 3 (LF or CRLF, C-locale numbers). Every rule of the note's
// "Validation" list that it calls an error is an error here, with the byte offset of the
// offending token; the sanity checks it calls warnings go to LwFile::warnings.
Result<LwFile> parse_lw(std::span<const std::byte> bytes);

// Kuper ASCII: `Axes = ...` header, then one line of numbers (one per axis) per frame.
Result<KuperFile> parse_kuper(std::span<const std::byte> bytes);

}  // namespace animdex::lightwave
