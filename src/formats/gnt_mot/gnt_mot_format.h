#pragma once
#include "formats/format.h"

namespace animdex::gnt_mot {

// Detection: MOT header shape (u32@0 == 0, header size 0x10 at 0x08, 1 <= N and a declared
// size that could hold the slot table). It does not require the declared size to match, so a
// truncated GNT file is still claimed and reported as a parse error rather than as unknown.
bool detect_mot(std::span<const std::byte> head, std::uint64_t file_size);

FormatModule format_module();

}  // namespace animdex::gnt_mot
