#pragma once
// A precise description of why bytes could not be parsed: where, what the format
// requires there, and what the file holds instead.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace animdex {

struct ParseError {
  std::uint64_t offset = 0;  // absolute byte offset in the parsed buffer
  std::string expected;      // what the format requires at `offset`
  std::string found;         // what the bytes hold instead (may be empty)

  std::string message() const;
};

// Thrown inside a parser by ByteReader and by checks; each parser's public entry
// point catches it and returns it as a value, so it never crosses a module boundary.
class ParseFailure : public std::exception {
 public:
  explicit ParseFailure(ParseError error);
  const ParseError& error() const noexcept { return error_; }
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  ParseError error_;
  std::string text_;
};

[[noreturn]] void fail_at(std::uint64_t offset, std::string expected, std::string found = {});

}  // namespace animdex
