#include "core/parse_error.h"

#include <fmt/format.h>

namespace animdex {

std::string ParseError::message() const {
  if (found.empty()) return fmt::format("at offset 0x{:X}: expected {}", offset, expected);
  return fmt::format("at offset 0x{:X}: expected {}, found {}", offset, expected, found);
}

ParseFailure::ParseFailure(ParseError error) : error_(std::move(error)), text_(error_.message()) {}

void fail_at(std::uint64_t offset, std::string expected, std::string found) {
  throw ParseFailure(ParseError{offset, std::move(expected), std::move(found)});
}

}  // namespace animdex
