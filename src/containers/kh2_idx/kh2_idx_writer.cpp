#include "containers/kh2_idx/kh2_idx_writer.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "containers/kh2_idx/kh2_compression.h"
#include "containers/kh2_idx/kh2_hash.h"
#include "core/byte_writer.h"

namespace animdex::kh2_idx {

namespace {

std::uint64_t blocks_for(std::uint64_t bytes) { return std::max<std::uint64_t>(1, (bytes + kBlockSize - 1) / kBlockSize); }

// Appends one entry's stored bytes at the next block of the IMG and returns its IDX entry.
Kh2IdxEntry place(const Kh2Entry& entry, std::vector<std::byte>& img) {
  if (entry.compress && entry.streamed) throw std::invalid_argument(entry.name + ": streamed entries are never compressed");
  const std::vector<std::byte> stored = entry.compress ? kh2_compress(entry.bytes) : entry.bytes;
  const std::uint64_t blocks = blocks_for(stored.size());
  if (blocks - 1 > kBlockFieldMask) throw std::length_error(entry.name + ": more blocks than the IDX block field holds");
  const std::uint64_t block = img.size() / kBlockSize;
  if (block > 0xFFFFFFFFULL) throw std::length_error("the IMG is past 2^32 blocks");
  Kh2IdxEntry written;
  written.hash32 = kh2_hash32(entry.name);
  written.hash16 = kh2_hash16(entry.name);
  written.descriptor = static_cast<std::uint16_t>((blocks - 1) | (entry.compress ? kCompressedFlag : 0) |
                                                  (entry.streamed ? kStreamedFlag : 0));
  written.block = static_cast<std::uint32_t>(block);
  written.size = static_cast<std::uint32_t>(entry.bytes.size());
  img.insert(img.end(), stored.begin(), stored.end());
  img.resize(static_cast<std::size_t>((block + blocks) * kBlockSize), std::byte{0});
  return written;
}

bool hash_less(const Kh2IdxEntry& a, const Kh2IdxEntry& b) {
  return std::tie(a.hash32, a.hash16) < std::tie(b.hash32, b.hash16);
}

}  // namespace

std::vector<std::byte> write_kh2_idx(std::span<const Kh2IdxEntry> entries) {
  ByteWriter out;
  out.u32(static_cast<std::uint32_t>(entries.size()), LE);
  for (const auto& entry : entries) {
    out.u32(entry.hash32, LE);
    out.u16(entry.hash16, LE);
    out.u16(entry.descriptor, LE);
    out.u32(entry.block, LE);
    out.u32(entry.size, LE);
  }
  return out.take();
}

Kh2Image build_kh2_idx_img(const std::vector<Kh2Entry>& entries) {
  Kh2Image image;
  std::vector<Kh2IdxEntry> table;
  table.reserve(entries.size());
  for (const auto& entry : entries) {
    if (entry.bytes.size() > 0xFFFFFFFFULL) throw std::length_error(entry.name + ": sizes are 32-bit");
    table.push_back(place(entry, image.img));
  }
  std::sort(table.begin(), table.end(), hash_less);
  const auto same_hashes = [](const Kh2IdxEntry& a, const Kh2IdxEntry& b) {
    return a.hash32 == b.hash32 && a.hash16 == b.hash16;
  };
  if (std::adjacent_find(table.begin(), table.end(), same_hashes) != table.end())
    throw std::invalid_argument("two entries hash to the same (Hash32, Hash16)");
  image.idx = write_kh2_idx(table);
  return image;
}

}  // namespace animdex::kh2_idx
