#pragma once
// The list of known formats, asked in a fixed order; the first that says "mine" wins.
#include <optional>
#include <span>
#include <string_view>

#include "formats/format.h"

namespace animdex {

std::span<const FormatModule> registered_formats();

// The module whose detect() claims these bytes, or nullptr (format "unknown").
const FormatModule* detect_format(std::span<const std::byte> head, std::uint64_t file_size);

const FormatModule* find_format(std::string_view id);

// Whether some format detects these bytes as its own or recognises them as its family's
// (FormatModule::recognizes); `head` is the whole of what is known.
bool recognized_by_a_format(std::span<const std::byte> head);

// The first answer of the formats' state_name hooks (slot states are one game's notion).
std::optional<std::string_view> slot_state_name(std::int64_t state);

inline constexpr std::string_view kUnknownFormat = "unknown";

}  // namespace animdex
