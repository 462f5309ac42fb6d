#pragma once
// Content hashes (XXH3-64) rendered as 16 lowercase hex digits, so equal content
// compares equal in SQL whatever file or offset it came from.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace animdex {

std::string hash_bytes(std::span<const std::byte> bytes);

// Incremental hasher for canonical serialisations (field by field, fixed width, little-endian).
class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;

  void add_u64(std::uint64_t value);
  void add_i64(std::int64_t value) { add_u64(static_cast<std::uint64_t>(value)); }
  void add_f64(double value);
  void add_text(std::string_view text);
  std::string hex() const;

 private:
  void* state_;
};

}  // namespace animdex
