#pragma once
// The storage under KeyColumns and SplineColumns, and the iterator they share. Columns of 8-byte
// words (doubles or integers) in one buffer, `capacity` words apart, so a track costs one
// allocation whatever it carries. A GNT track has about nine keys and a KH2 curve a few dozen, so
// per-track allocations, not keys, were the parsers' cost (bench/RESULTS.md, figure a).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <new>
#include <utility>

namespace animdex::model {

// Where a parsed file's column buffers can come from: one arena per file, released as a whole when
// the last column that uses it goes. A track's buffer is then a bump of a pointer, not a malloc
// and a free: at 330k tracks in the bench's GNT files the allocator was a fifth of the parse. The
// arena asks its upstream (the heap) for chunks 1.5x the last. A parser charges its budget per key
// before sizing columns, as without an arena; the arena's slack is not charged: at most half the
// bytes in use, plus the unused part of a first chunk that the parser sizes from its file.
using ColumnArena = std::pmr::monotonic_buffer_resource;

// Whether new columns are zero-filled, or left for a caller that writes every word of every column
// before anything reads them (a parser that decodes a whole track at once; a debug build fills
// them with all bits set, a NaN, so a word left unwritten is caught). Zero-filling a file's
// columns was a tenth of the GNT parse: it is the first write to each new cache line, which the
// parser's own writes then repeat. Columns on the heap are always zero-filled.
enum class ColumnFill { zeroed, by_caller };

// A ColumnArena for one parsed file, on the process's heap by name rather than the default
// resource: its first chunk the library's default size, or `first_chunk_bytes` (at least 1 KiB:
// the arena needs a size above 0) for a parser that can tell from its file.
inline std::shared_ptr<ColumnArena> make_column_arena() {
  return std::make_shared<ColumnArena>(std::pmr::new_delete_resource());
}
inline std::shared_ptr<ColumnArena> make_column_arena(std::size_t first_chunk_bytes) {
  return std::make_shared<ColumnArena>(std::max<std::size_t>(first_chunk_bytes, 1024), std::pmr::new_delete_resource());
}

class WordColumns {
 public:
  WordColumns() = default;
  // `column_count` columns of room for `capacity` words each, zero-filled, on the heap.
  WordColumns(std::size_t column_count, std::size_t capacity)
      : column_count_(column_count), capacity_(capacity) {
    if (words() > 0) buffer_ = heap_words(words(), true);
  }
  // The same, in `arena`, which the columns keep alive (a null arena is the heap), zero-filled or
  // left for the caller to fill.
  WordColumns(std::size_t column_count, std::size_t capacity, const std::shared_ptr<ColumnArena>& arena,
              ColumnFill fill = ColumnFill::zeroed)
      : column_count_(column_count), capacity_(capacity) {
    if (!arena) *this = WordColumns(column_count, capacity);
    else if (words() > 0) {
      auto* bytes = static_cast<std::byte*>(arena->allocate(words() * kWordBytes, kWordBytes));
      if (fill == ColumnFill::zeroed) std::fill_n(bytes, words() * kWordBytes, std::byte{0});
#ifndef NDEBUG
      // All bits set: a NaN as a double, so a word its caller failed to write is caught (validate()).
      else std::fill_n(bytes, words() * kWordBytes, std::byte{0xFF});
#endif
      buffer_ = std::shared_ptr<std::byte[]>(arena, bytes);  // shares the arena's ownership
    }
  }
  // A copy owns its buffer on the heap, whatever the original's came from.
  WordColumns(const WordColumns& other) : column_count_(other.column_count_), capacity_(other.capacity_) {
    if (words() == 0) return;
    buffer_ = heap_words(words(), false);
    std::copy_n(other.buffer_.get(), words() * kWordBytes, buffer_.get());
  }
  WordColumns& operator=(const WordColumns& other) {
    if (this != &other) *this = WordColumns(other);
    return *this;
  }
  WordColumns(WordColumns&& other) noexcept
      : column_count_(std::exchange(other.column_count_, 0)),
        capacity_(std::exchange(other.capacity_, 0)),
        buffer_(std::move(other.buffer_)) {}
  WordColumns& operator=(WordColumns&& other) noexcept {
    column_count_ = std::exchange(other.column_count_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    buffer_ = std::move(other.buffer_);
    return *this;
  }

  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t column_count() const noexcept { return column_count_; }
  // Column `column`'s first word, read as doubles or as integers. The buffer is bytes, so it may hold
  // objects of both types (C++20 [intro.object]: a byte array implicitly creates them).
  double* reals(std::size_t column) const noexcept { return words_as<double>(column); }
  std::int64_t* integers(std::size_t column) const noexcept { return words_as<std::int64_t>(column); }

  // A copy with `column_count` columns of `capacity` words (zero-filled), keeping the first
  // `kept_rows` words of each column both have.
  WordColumns resized(std::size_t column_count, std::size_t capacity, std::size_t kept_rows) const {
    WordColumns grown(column_count, capacity);
    const std::size_t rows = std::min({kept_rows, capacity, capacity_});
    for (std::size_t column = 0; column < std::min(column_count, column_count_) && rows > 0; ++column)
      std::copy_n(word(column), rows * kWordBytes, grown.word(column));
    return grown;
  }

 private:
  static constexpr std::size_t kWordBytes = 8;
  // `count` words on the heap, aligned for a word (a byte array alone promises no alignment).
  static std::shared_ptr<std::byte[]> heap_words(std::size_t count, bool zeroed) {
    auto words = zeroed ? std::make_shared<std::uint64_t[]>(count) : std::make_shared_for_overwrite<std::uint64_t[]>(count);
    return std::shared_ptr<std::byte[]>(words, reinterpret_cast<std::byte*>(words.get()));
  }
  std::size_t words() const noexcept { return column_count_ * capacity_; }
  std::byte* word(std::size_t column) const noexcept { return buffer_.get() + column * capacity_ * kWordBytes; }
  // Laundered where the column's words live; a column past the last (or no buffer) is only an
  // address, for an empty span.
  template <typename T>
  T* words_as(std::size_t column) const noexcept {
    T* at = reinterpret_cast<T*>(word(column));
    return column < column_count_ && capacity_ > 0 ? std::launder(at) : at;
  }

  std::size_t column_count_ = 0;
  std::size_t capacity_ = 0;
  std::shared_ptr<std::byte[]> buffer_;  // on the heap, or an arena's bytes sharing the arena's ownership
};

// Iterates a column container by value (its operator[]): its elements are assembled from columns,
// not stored, so there is nothing to refer to. Enough for range-for and the std algorithms that
// read once.
template <typename Container, typename Value>
class ByValueIterator {
 public:
  using value_type = Value;
  using difference_type = std::ptrdiff_t;
  ByValueIterator() = default;
  ByValueIterator(const Container* container, std::size_t index) : container_(container), index_(index) {}
  Value operator*() const { return (*container_)[index_]; }
  ByValueIterator& operator++() {
    ++index_;
    return *this;
  }
  ByValueIterator operator++(int) {
    auto copy = *this;
    ++index_;
    return copy;
  }
  bool operator==(const ByValueIterator& other) const { return index_ == other.index_; }

 private:
  const Container* container_ = nullptr;
  std::size_t index_ = 0;
};

}  // namespace animdex::model
