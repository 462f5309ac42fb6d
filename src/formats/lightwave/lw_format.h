#pragma once
#include "formats/format.h"

namespace animdex::lightwave {

// Detection: the text starts with the magic LWMO / LWEN followed by whitespace (or the end),
// or with "Axes" and "=" (Kuper). Version and body are the parser's business, so a damaged
// LightWave file is an error, not unknown.
bool detect_motion(std::span<const std::byte> head, std::uint64_t file_size);
bool detect_envelope(std::span<const std::byte> head, std::uint64_t file_size);
bool detect_kuper(std::span<const std::byte> head, std::uint64_t file_size);

FormatModule motion_format_module();
FormatModule envelope_format_module();
FormatModule kuper_format_module();

}  // namespace animdex::lightwave
