#pragma once
// How a capability tells a user which animations there are to choose from, in its errors: every
// one when there are few (`0x0000, 0x0090, 0x0140`), else the first and the last with the count
// (`0 .. 557 (86 motions)`), so a motion set of hundreds does not fill the terminal.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace animdex {

inline constexpr std::size_t kChoicesShownInFull = 12;

std::string choices_text(const std::vector<std::string>& choices, std::string_view noun);

}  // namespace animdex
