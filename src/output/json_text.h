#pragma once
// JSON text as every verb prints it: nlohmann's layout (2-space indent, or one line), but each
// float written with the shortest digits that read back to it (std::to_chars), which nlohmann's
// own writer (Grisu2) does not always find: it prints 0.5061446 as 0.5061445999999999.
#include <nlohmann/json.hpp>
#include <string>

namespace animdex {

// `indent` < 0: one line, no spaces (JSON Lines).
std::string json_text(const nlohmann::ordered_json& value, int indent = 2);

}  // namespace animdex
