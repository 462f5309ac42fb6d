#include "containers/byte_source.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "core/parse_error.h"

namespace animdex {

namespace {
[[noreturn]] void fail_outside(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
  fail_at(offset, fmt::format("{} bytes inside the {}-byte source", length, size),
          fmt::format("the range ends at {}", offset + length));
}
}  // namespace

std::vector<std::byte> ByteSource::read_vector(std::uint64_t offset, std::uint64_t length) const {
  if (!contains(offset, length)) fail_outside(offset, length, size());
  std::vector<std::byte> bytes(static_cast<std::size_t>(length));
  read(offset, bytes);
  return bytes;
}

HexDigest hash_range(const ByteSource& source, std::uint64_t offset, std::uint64_t length) {
  if (!source.contains(offset, length)) fail_outside(offset, length, source.size());
  constexpr std::uint64_t kPiece = 256 << 10;  // within a core's L2 cache, read and hashed while there
  const auto buffer = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(std::min(length, kPiece)));
  ContentHasher hasher;
  for (std::uint64_t done = 0; done < length;) {
    const std::span<std::byte> piece(buffer.get(), static_cast<std::size_t>(std::min(length - done, kPiece)));
    source.read(offset + done, piece);
    hasher.add_bytes(piece);
    done += piece.size();
  }
  return hasher.digest();
}

void MemorySource::read(std::uint64_t offset, std::span<std::byte> out) const {
  if (!contains(offset, out.size())) fail_outside(offset, out.size(), size());
  if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
}

RangeSource::RangeSource(std::shared_ptr<const ByteSource> parent, std::uint64_t offset, std::uint64_t length)
    : parent_(std::move(parent)), offset_(offset), length_(length) {
  if (!parent_->contains(offset, length)) fail_outside(offset, length, parent_->size());
}

void RangeSource::read(std::uint64_t offset, std::span<std::byte> out) const {
  if (!contains(offset, out.size())) fail_outside(offset, out.size(), size());
  parent_->read(offset_ + offset, out);
}

}  // namespace animdex
