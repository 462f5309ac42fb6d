#pragma once
// Appends fixed-width values with an explicit byte order; used by format writers.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/byte_reader.h"

namespace animdex {

class ByteWriter {
 public:
  std::size_t size() const noexcept { return bytes_.size(); }
  const std::vector<std::byte>& bytes() const noexcept { return bytes_; }
  std::vector<std::byte> take() { return std::move(bytes_); }

  void u8(std::uint8_t value) { bytes_.push_back(static_cast<std::byte>(value)); }
  void u16(std::uint16_t value, Endian order) { put(value, order); }
  void u32(std::uint32_t value, Endian order) { put(value, order); }
  void f32(float value, Endian order) { put(std::bit_cast<std::uint32_t>(value), order); }
  void append(std::span<const std::byte> data) { bytes_.insert(bytes_.end(), data.begin(), data.end()); }
  void zeros(std::size_t count) { bytes_.resize(bytes_.size() + count, std::byte{0}); }

  // Overwrites a u32 already written (e.g. a size known only at the end).
  void patch_u32(std::size_t offset, std::uint32_t value, Endian order);

 private:
  template <typename T>
  void put(T value, Endian order) {
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      const std::size_t shift = order == Endian::big ? (sizeof(T) - 1 - i) * 8 : i * 8;
      bytes_.push_back(static_cast<std::byte>((value >> shift) & 0xFF));
    }
  }

  std::vector<std::byte> bytes_;
};

}  // namespace animdex
