#pragma once
// Bytes written out in a test as a list of numbers, `byte_list({0x10, 0x00, 0xFF})`: one builder for
// every test (header-only and without SQLite, so the container tests that link no database use it).
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace animdex::test {

// Each value is one byte (its low 8 bits): the lists are hex dumps of hand-made streams.
inline std::vector<std::byte> byte_list(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  out.reserve(values.size());
  for (int value : values) out.push_back(static_cast<std::byte>(value));
  return out;
}

}  // namespace animdex::test
