#pragma once
// Content hashes (XXH3-64) rendered as 16 lowercase hex digits, so equal content
// compares equal in SQL whatever file or offset it came from.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace animdex {

std::string hash_bytes(std::span<const std::byte> bytes);

// Hasher for canonical serialisations (field by field, fixed width, little-endian). The fields
// are gathered and hashed in one call at the end: the same hash as streaming them, without a
// streaming state per hash (the indexer makes one per track, hundreds of thousands per dump).
class ContentHasher {
 public:
  ContentHasher() { serialised_.resize(256); }

  void add_u64(std::uint64_t value) {
    if constexpr (std::endian::native == std::endian::big) value = __builtin_bswap64(value);
    if (size_ + 8 > serialised_.size()) serialised_.resize(std::max<std::size_t>(2 * serialised_.size(), size_ + 8));
    std::memcpy(serialised_.data() + size_, &value, 8);  // little-endian, whatever the host
    size_ += 8;
  }
  void add_i64(std::int64_t value) { add_u64(static_cast<std::uint64_t>(value)); }
  void add_f64(double value);  // the bits: -0.0 and 0.0 differ in a file
  void add_text(std::string_view text);
  // Room for `bytes` more without reallocating: a caller that knows its size appends in one go.
  void reserve_more(std::size_t bytes) {
    if (size_ + bytes > serialised_.size()) serialised_.resize(size_ + bytes);
  }
  std::string hex() const;

 private:
  std::string serialised_;  // the fields so far: its first size_ bytes
  std::size_t size_ = 0;
};

}  // namespace animdex
