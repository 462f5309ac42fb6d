#pragma once
// Test-side access to a built ISO9660 image's records (containers.md section 5), so corrupt-input
// tests can patch one field of one record: the root's extent from the primary descriptor, and a
// record found by name along a path.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "support/corrupt_input.h"

namespace animdex::test::iso {

inline constexpr std::size_t kPvd = 0x8000;
inline constexpr std::size_t kRootRecord = kPvd + 0x9C;

struct RecordAt {
  std::size_t at = 0;          // the record's offset in the image
  std::uint64_t extent = 0;    // of the data it points at
  std::uint64_t length = 0;
};

inline RecordAt record_at(const Bytes& image, std::size_t at) {
  return {at, get(image, at + 2, 4, LE), get(image, at + 10, 4, LE)};
}

// The record named `identifier` (as recorded, "FILE.BIN;1") in the directory `directory` points at.
inline RecordAt find_in(const Bytes& image, const RecordAt& directory, std::string_view identifier) {
  const std::size_t start = static_cast<std::size_t>(directory.extent * 2048);
  for (std::size_t sector = 0; sector < directory.length; sector += 2048) {
    for (std::size_t at = start + sector; at < start + sector + 2048;) {
      const auto length = static_cast<std::size_t>(get(image, at, 1, LE));
      if (length == 0) break;
      const auto name_length = static_cast<std::size_t>(get(image, at + 32, 1, LE));
      const std::string name(reinterpret_cast<const char*>(image.data() + at + 33), name_length);
      if (name == identifier) return record_at(image, at);
      at += length;
    }
  }
  FAIL("no record " << identifier);
  return {};
}

// The record at the end of a '/'-separated path of recorded identifiers ("DIR/SUB/FILE.BIN;1").
inline RecordAt find_record(const Bytes& image, std::string_view path) {
  RecordAt current = record_at(image, kRootRecord);
  while (!path.empty()) {
    const auto slash = path.find('/');
    current = find_in(image, current, path.substr(0, slash));
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
  }
  return current;
}

// Writes both copies of a both-endian field (little-endian, then big-endian).
inline void put_both(Bytes& image, std::size_t at, std::uint64_t value, int size) {
  put(image, at, value, size, LE);
  put(image, at + static_cast<std::size_t>(size), value, size, BE);
}

}  // namespace animdex::test::iso
