#pragma once
// Content hashes (XXH3-64) rendered as 16 lowercase hex digits, so equal content
// compares equal in SQL whatever file or offset it came from.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace animdex {

std::string hash_bytes(std::span<const std::byte> bytes);

// A hash's 16 hex digits held in place: one per track is made in the parallel stage and freed
// by the writer's thread, so a heap string each (16 digits miss the small-string buffer by one)
// cost two allocator calls per track, one of them across threads.
struct HexDigest {
  std::array<char, 17> digits{};  // 16 digits and a NUL, so SQLite can take it as C text
  const char* c_str() const noexcept { return digits.data(); }
  std::string_view view() const noexcept { return {digits.data(), 16}; }
  std::string text() const { return std::string(view()); }
  bool operator==(const HexDigest&) const = default;
};

// Hasher for canonical serialisations (field by field, fixed width, little-endian). Fields gather
// in a buffer of kChunk bytes and go to XXH3 a chunk at a time (the same hash as one call over
// them all): cheap per field, and the memory stays bounded however large a track is.
class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;

  void add_u64(std::uint64_t value) {
    if constexpr (std::endian::native == std::endian::big) value = __builtin_bswap64(value);
    if (size_ + 8 > kChunk) flush();
    std::memcpy(buffer_ + size_, &value, 8);  // little-endian, whatever the host
    size_ += 8;
  }
  // add_u64 of each word in turn, in one copy: for a track's keys, a dozen fields a key.
  void add_words(std::span<const std::uint64_t> words) {
    const std::size_t bytes = 8 * words.size();
    if (size_ + bytes > kChunk) flush();  // XXH3's stream is the same however its input is cut
    if (bytes > kChunk) {
      for (const std::uint64_t word : words) add_u64(word);
      return;
    }
    if constexpr (std::endian::native == std::endian::big) {
      for (std::size_t i = 0; i < words.size(); ++i) {
        const std::uint64_t little = __builtin_bswap64(words[i]);
        std::memcpy(buffer_ + size_ + 8 * i, &little, 8);
      }
    } else {
      std::memcpy(buffer_ + size_, words.data(), bytes);
    }
    size_ += bytes;
  }
  void add_i64(std::int64_t value) { add_u64(static_cast<std::uint64_t>(value)); }
  void add_f64(double value) { add_u64(std::bit_cast<std::uint64_t>(value)); }  // the bits: -0.0 is not 0.0
  void add_text(std::string_view text);
  // Raw bytes, no length before them: pieces added in turn hash as hash_bytes of them joined.
  void add_bytes(std::span<const std::byte> bytes);
  std::string hex();
  HexDigest digest();  // the same digits as hex()

 private:
  static constexpr std::size_t kChunk = 4096;
  void flush();  // hands the buffer to the streaming state (made on first use)
  unsigned char buffer_[kChunk];
  std::size_t size_ = 0;
  void* state_ = nullptr;  // XXH3 streaming state, only for serialisations over one chunk
};

}  // namespace animdex
