#pragma once
// Random access to a container's bytes. Large images are read by range through this interface and
// never held whole: a file (indexer/file_source.h, pread), a range of another source (a raw member
// such as an FPK on a disc), or bytes in memory (a decompressed member). Readers touch bytes only
// through a ByteSource and the bounds-checked ByteReader over what they read.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/content_hash.h"

namespace animdex {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual std::uint64_t size() const = 0;
  // Fills `out` with the bytes at [offset, offset + out.size()). Throws ParseFailure (at `offset`)
  // when the range is not inside the source or cannot be read.
  virtual void read(std::uint64_t offset, std::span<std::byte> out) const = 0;

  // Bounds-checked convenience: `length` bytes at `offset` (the caller checks `length` against its
  // memory budget first).
  std::vector<std::byte> read_vector(std::uint64_t offset, std::uint64_t length) const;
  bool contains(std::uint64_t offset, std::uint64_t length) const {
    return offset <= size() && length <= size() - offset;
  }
};

// hash_bytes' digits for [offset, offset + length) of `source`, read a piece at a time, so hashing a
// member's stored bytes holds no buffer its size. Throws ParseFailure as read() does.
HexDigest hash_range(const ByteSource& source, std::uint64_t offset, std::uint64_t length);

// Bytes held in memory: owned (a decompressed member) or borrowed (a test's buffer).
class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::vector<std::byte> owned) : owned_(std::move(owned)), bytes_(owned_) {}
  explicit MemorySource(std::span<const std::byte> borrowed) : bytes_(borrowed) {}
  MemorySource(const MemorySource&) = delete;
  MemorySource& operator=(const MemorySource&) = delete;
  std::uint64_t size() const override { return bytes_.size(); }
  void read(std::uint64_t offset, std::span<std::byte> out) const override;
  std::span<const std::byte> bytes() const { return bytes_; }

 private:
  std::vector<std::byte> owned_;
  std::span<const std::byte> bytes_;
};

// [offset, offset + length) of a parent source, seen as a source of its own (a member stored raw).
// Shares ownership of the parent so a chain of sources stays alive as long as its innermost view.
class RangeSource final : public ByteSource {
 public:
  // Throws ParseFailure when the range is not inside the parent.
  RangeSource(std::shared_ptr<const ByteSource> parent, std::uint64_t offset, std::uint64_t length);
  std::uint64_t size() const override { return length_; }
  void read(std::uint64_t offset, std::span<std::byte> out) const override;

 private:
  std::shared_ptr<const ByteSource> parent_;
  std::uint64_t offset_, length_;
};

}  // namespace animdex
