#include "core/byte_reader.h"

#include <cmath>
#include <fmt/format.h>

namespace animdex {

void ByteReader::fail_outside(std::uint64_t offset, std::uint64_t length, std::string_view what) const {
  fail_at(offset, fmt::format("{} of {} bytes inside the {}-byte buffer", what, length, bytes_.size()),
          "the end of the data");
}

std::string ByteReader::ascii(std::uint64_t offset, std::uint64_t length) const {
  auto span = slice(offset, length);
  return std::string(reinterpret_cast<const char*>(span.data()), span.size());
}

void ByteReader::fail_not_finite(std::uint64_t offset, Endian order, std::string_view what) const {
  const float value = f32(offset, order);
  fail_at(offset, fmt::format("a finite float32 for {}", what), fmt::format("{} (bits 0x{:08X})", value, u32(offset, order)));
}

void ByteReader::fail_past_end(std::uint64_t offset, std::uint64_t length) const {
  fail_at(offset, fmt::format("{} more bytes", length),
          fmt::format("the end of the {}-byte buffer", bytes_.size()));
}

}  // namespace animdex
