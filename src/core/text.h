#pragma once
// Small text helpers shared by the readers of embedded text files (queries, schema).
#include <string_view>

namespace animdex {

// `text` without leading and trailing spaces, tabs and carriage returns.
inline std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

}  // namespace animdex
