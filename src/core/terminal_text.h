#pragma once
// Names come from files and folders, which may hold anything: text made safe before a terminal
// (or a log line) shows it.
#include <string>
#include <string_view>

namespace animdex {

// Text that is safe on a terminal and on one line: line breaks and tabs become spaces; other
// control characters (ESC of ANSI sequences, C1 controls, DEL), bidirectional overrides and bytes
// that are not UTF-8 become '?'. Names come from files and folders, which may hold anything.
std::string terminal_safe(std::string_view text);

}  // namespace animdex
