#pragma once
// The only way parsers touch bytes: every read is bounds-checked against the buffer
// and names its byte order. A read past the end throws ParseFailure naming the offset.
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/parse_deadline.h"
#include "core/parse_error.h"

namespace animdex {

enum class Endian { little, big };
// The two byte orders by their usual short names, for formats to use instead of their own.
inline constexpr Endian LE = Endian::little;
inline constexpr Endian BE = Endian::big;

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

  std::size_t size() const noexcept { return bytes_.size(); }
  std::span<const std::byte> bytes() const noexcept { return bytes_; }

  // True when [offset, offset+length) lies inside the buffer (overflow-safe).
  bool contains(std::uint64_t offset, std::uint64_t length) const noexcept {
    return offset <= bytes_.size() && length <= bytes_.size() - offset;
  }

  // Throws unless [offset, offset+length) lies inside the buffer; `what` names the field. Inline:
  // parsers call it for every run they read.
  void require(std::uint64_t offset, std::uint64_t length, std::string_view what) const {
    if (!contains(offset, length)) [[unlikely]] fail_outside(offset, length, what);
  }

  std::uint8_t u8(std::uint64_t offset) const { return load<std::uint8_t>(offset, Endian::little); }
  std::uint16_t u16(std::uint64_t offset, Endian order) const { return load<std::uint16_t>(offset, order); }
  std::uint32_t u32(std::uint64_t offset, Endian order) const { return load<std::uint32_t>(offset, order); }
  std::uint64_t u64(std::uint64_t offset, Endian order) const { return load<std::uint64_t>(offset, order); }
  std::int16_t i16(std::uint64_t offset, Endian order) const { return static_cast<std::int16_t>(u16(offset, order)); }
  std::int32_t i32(std::uint64_t offset, Endian order) const { return static_cast<std::int32_t>(u32(offset, order)); }
  float f32(std::uint64_t offset, Endian order) const { return std::bit_cast<float>(u32(offset, order)); }
  // A float32 that must be a number (not NaN or +-inf): anything else fails the parse at `offset`,
  // naming `what`. Used for times and values, which the database and every evaluation need finite.
  // Inline: parsers call it per key, and only the failure needs the formatting below.
  float finite_f32(std::uint64_t offset, Endian order, std::string_view what) const {
    const float value = f32(offset, order);
    if (!std::isfinite(value)) [[unlikely]]
      fail_not_finite(offset, order, what);
    return value;
  }

  // Fills `out` with consecutive values of T (an unsigned integer of 2 or 4 bytes, or float) from
  // `offset` on, in `order`: one bounds check and one deadline count for the run, then a copy (the
  // host's order) or a swap of eight bytes a step. For a parser's per-key columns, where a read per
  // value was most of a parse.
  template <typename T>
  void read_array(std::uint64_t offset, Endian order, std::span<T> out) const {
    using Word = std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint32_t>;
    static_assert((std::is_unsigned_v<T> && (sizeof(T) == 2 || sizeof(T) == 4)) || std::is_same_v<T, float>,
                  "2- or 4-byte unsigned integers, or float");
    require(offset, std::uint64_t{out.size()} * sizeof(T), "an array of values");
    count_reads(offset, out.size());
    if (out.empty()) return;
    const std::byte* from = bytes_.data() + offset;
    if ((order == Endian::big) == (std::endian::native == std::endian::big)) {
      std::memcpy(out.data(), from, out.size() * sizeof(T));
      return;
    }
    // Eight bytes (four 2-byte or two 4-byte words) a step, each word's bytes swapped in its lane:
    // GCC 12 at -O2 does not vectorise a word-by-word loop (only -O3 does).
    constexpr std::size_t per_step = 8 / sizeof(Word);
    std::size_t i = 0;
    for (; i + per_step <= out.size(); i += per_step) {
      std::uint64_t packed;
      std::memcpy(&packed, from + i * sizeof(Word), sizeof packed);
      packed = swap_each<Word>(packed);
      std::memcpy(out.data() + i, &packed, sizeof packed);
    }
    for (; i < out.size(); ++i) {
      Word word;
      std::memcpy(&word, from + i * sizeof(Word), sizeof(Word));
      out[i] = std::bit_cast<T>(byteswap(word));
    }
  }

  std::span<const std::byte> slice(std::uint64_t offset, std::uint64_t length) const {
    require(offset, length, "byte range");
    return bytes_.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
  }
  std::string ascii(std::uint64_t offset, std::uint64_t length) const;

  // Convenience big/little-endian readers.
  std::uint16_t u16be(std::uint64_t o) const { return u16(o, Endian::big); }
  std::uint32_t u32be(std::uint64_t o) const { return u32(o, Endian::big); }
  float f32be(std::uint64_t o) const { return f32(o, Endian::big); }
  std::uint16_t u16le(std::uint64_t o) const { return u16(o, Endian::little); }
  std::uint32_t u32le(std::uint64_t o) const { return u32(o, Endian::little); }
  float f32le(std::uint64_t o) const { return f32(o, Endian::little); }

 private:
  [[noreturn]] void fail_not_finite(std::uint64_t offset, Endian order, std::string_view what) const;

  // Counts `reads` reads toward the parse deadline, checking it each kDeadlineCheckInterval.
  void count_reads(std::uint64_t offset, std::size_t reads) const {
    const std::uint64_t before = reads_;
    reads_ += static_cast<std::uint32_t>(reads);
    if ((before + reads) / kDeadlineCheckInterval != before / kDeadlineCheckInterval) check_parse_deadline(offset);
  }

  template <typename T>
  T load(std::uint64_t offset, Endian order) const {
    if (!contains(offset, sizeof(T))) fail_past_end(offset, sizeof(T));
    if (++reads_ % kDeadlineCheckInterval == 0) check_parse_deadline(offset);
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof(T));
    const bool host_is_big = std::endian::native == std::endian::big;
    if ((order == Endian::big) != host_is_big) value = byteswap(value);
    return value;
  }

  template <typename T>
  static T byteswap(T value) {
    if constexpr (sizeof(T) == 1) return value;
    else if constexpr (sizeof(T) == 2) return static_cast<T>(__builtin_bswap16(value));
    else if constexpr (sizeof(T) == 4) return static_cast<T>(__builtin_bswap32(value));
    else return static_cast<T>(__builtin_bswap64(value));
  }

  // Each 2- or 4-byte lane of `packed` with its bytes swapped in place.
  template <typename Word>
  static std::uint64_t swap_each(std::uint64_t packed) {
    if constexpr (sizeof(Word) == 2)
      return ((packed >> 8) & 0x00FF00FF00FF00FFULL) | ((packed & 0x00FF00FF00FF00FFULL) << 8);
    else  // reversing all eight bytes also swaps the two lanes: a rotation swaps them back
      return std::rotr(static_cast<std::uint64_t>(__builtin_bswap64(packed)), 32);
  }

  [[noreturn]] void fail_outside(std::uint64_t offset, std::uint64_t length, std::string_view what) const;
  [[noreturn]] void fail_past_end(std::uint64_t offset, std::uint64_t length) const;

  std::span<const std::byte> bytes_;
  mutable std::uint32_t reads_ = 0;  // for the parse deadline check
};

}  // namespace animdex
