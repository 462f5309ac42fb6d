#pragma once
// The list of known formats, asked in a fixed order; the first that says "mine" wins.
#include <span>
#include <string_view>

#include "formats/format.h"

namespace animdex {

std::span<const FormatModule> registered_formats();

// The module whose detect() claims these bytes, or nullptr (format "unknown").
const FormatModule* detect_format(std::span<const std::byte> head, std::uint64_t file_size);

const FormatModule* find_format(std::string_view id);

inline constexpr std::string_view kUnknownFormat = "unknown";

}  // namespace animdex
