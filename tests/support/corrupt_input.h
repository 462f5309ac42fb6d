#pragma once
// The one helper for corrupt-input tests: patch a field of a good file (in the format's byte
// order), then expect the parse to fail with the field's offset and what was expected there.
#include <catch2/catch.hpp>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/byte_reader.h"
#include "core/result.h"

namespace animdex::test {

using Bytes = std::vector<std::byte>;

// Writes the low `size` bytes of `value` at `at` in `order` (bounds-checked: a test's own mistake
// throws instead of writing past the end).
inline void put(Bytes& bytes, std::size_t at, std::uint64_t value, int size, Endian order) {
  for (int i = 0; i < size; ++i) {
    const int shift = 8 * (order == LE ? i : size - 1 - i);
    bytes.at(at + static_cast<std::size_t>(i)) = static_cast<std::byte>((value >> shift) & 0xFF);
  }
}

inline std::uint64_t get(const Bytes& bytes, std::size_t at, int size, Endian order) {
  std::uint64_t value = 0;
  for (int i = 0; i < size; ++i) {
    const int shift = 8 * (order == LE ? i : size - 1 - i);
    value |= std::to_integer<std::uint64_t>(bytes.at(at + static_cast<std::size_t>(i))) << shift;
  }
  return value;
}

inline void put_f32(Bytes& bytes, std::size_t at, float value, Endian order) {
  put(bytes, at, std::bit_cast<std::uint32_t>(value), 4, order);
}

// The parse failed, its message says `expected_text`, and (when given) it names `offset`.
template <typename T>
void expect_parse_error(const Result<T>& parsed, const std::string& expected_text,
                        std::optional<std::uint64_t> offset = std::nullopt) {
  REQUIRE_FALSE(parsed.ok());
  INFO(parsed.error().message());
  CHECK_THAT(parsed.error().message(), Catch::Contains(expected_text));
  if (offset) CHECK(parsed.error().offset == *offset);
}

}  // namespace animdex::test
