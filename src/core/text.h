#pragma once
// Small text helpers shared by the readers of embedded text files (queries, schema) and by the
// places that compare what a user typed with what is stored.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace animdex {

// `text` without leading and trailing spaces, tabs and carriage returns.
inline std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// `text` with ASCII letters in lower case (format names, disc paths, file stems).
inline std::string lowercase_ascii(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

// Equal letter for letter, ASCII case aside (disc paths, labels, characters a user types).
inline bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// "1 file", "2 files", "0 animations": a count with its noun in the number it needs (`plural` for
// nouns that do not just take an s).
inline std::string counted(long long count, std::string_view noun, std::string_view plural = {}) {
  std::string text = std::to_string(count) + " ";
  if (count == 1) return text.append(noun);
  return plural.empty() ? text.append(noun).append("s") : text.append(plural);
}

}  // namespace animdex
