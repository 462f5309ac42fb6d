#pragma once
// The list of known formats, asked in a fixed order; the first that says "mine" wins.
#include <optional>
#include <string>
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

// Help text made from the formats' FormatHelp, family by family in registry order (the first
// non-empty text of each): "GNT animation ID (decimal or 0x hex); KH2 slot N, or N/M ...".
std::string help_by_family(std::string_view FormatHelp::*field, std::string_view separator = "; ");
// "GNT .mot, KH2 .mset/.anb, ...": each family with its file names.
std::string families_with_extensions();
// The families some of whose formats have a capability: "GNT, LightWave, KH2, NDS".
std::string families_that_pose();
std::string families_with_curves();

// The first answer of the formats' state_name hooks (slot states are one game's notion).
std::optional<std::string_view> slot_state_name(std::int64_t state);

inline constexpr std::string_view kUnknownFormat = "unknown";

}  // namespace animdex
