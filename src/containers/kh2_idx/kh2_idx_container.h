#pragma once
// Kingdom Hearts II (PS2) KH2.IDX + KH2.IMG (containers.md section 4): the IDX (input.table) is a
// u32 count and 16-byte little-endian entries sorted by Hash32; the bytes live in the IMG
// (input.data) at 2048-byte blocks, raw or KH2-compressed (kh2_compression.h). The world tables
// 000al.idx ... are ordinary members here, IDX files themselves pointing into the same KH2.IMG.
#include <cstddef>
#include <cstdint>
#include <span>

#include "containers/container.h"
#include "containers/kh2_idx/kh2_compression.h"

namespace animdex::kh2_idx {

inline constexpr std::uint64_t kBlockSize = 2048;
inline constexpr std::uint64_t kEntrySize = 16;
inline constexpr std::uint64_t kCountSize = 4;
inline constexpr std::uint16_t kBlockFieldMask = 0x3FFF;  // bits 0-13: block count - 1
inline constexpr std::uint16_t kCompressedFlag = 0x4000;
inline constexpr std::uint16_t kStreamedFlag = 0x8000;
inline constexpr std::uint32_t kBigCompressedSize = 0x1000000;  // the B_LK120_RAW fix threshold

// One 16-byte IDX entry as stored.
struct Kh2IdxEntry {
  std::uint32_t hash32 = 0;
  std::uint16_t hash16 = 0;
  std::uint16_t descriptor = 0;  // block field | compressed | streamed
  std::uint32_t block = 0;       // offset in 2048-byte blocks from the start of the IMG
  std::uint32_t size = 0;        // uncompressed bytes

  bool compressed() const { return (descriptor & kCompressedFlag) != 0; }
  bool streamed() const { return (descriptor & kStreamedFlag) != 0; }
};

// The block field (block count - 1) with OpenKh's fix for obj/B_LK120_RAW.mset (section 4): bit 12
// set when the entry is compressed and its size is at least 0x1000000 (0x4710 -> 0x1710).
std::uint32_t block_field(const Kh2IdxEntry& entry);

// Bytes an entry occupies in the IMG: its size when raw, (block field + 1) * 2048 when compressed.
std::uint64_t stored_size(const Kh2IdxEntry& entry);

// The entry at `index` of an IDX held in `idx` (the caller checked it is inside).
Kh2IdxEntry read_entry(std::span<const std::byte> idx, std::uint64_t index);

// size == 4 + 16 * count with count >= 1, and the entries in `head` (up to 64) strictly ascending
// by Hash32. Weak on its own: the module also requires the ".idx" extension.
bool detect_kh2_idx(std::span<const std::byte> head, std::uint64_t size);

// Reads the whole IDX from input.table (after checking it against limits.max_table_size and the
// count against limits.max_members); nothing is read from input.data, whose size bounds the
// members. Errors (offset in the IDX): shorter than the count, size != 4 + 16 * count, caps.
// A bad entry does not sink the listing: it is left out with a warning naming its IDX offset
// (range outside the IMG, streamed and compressed at once); unsorted entries are a warning.
// path = the known name or "@HHHHHHHH-HHHH", stored_name = "@HHHHHHHH-HHHH".
Result<MemberList> list_kh2_idx(const ContainerInput& input, const ContainerLimits& limits);

// id "kh2_idx": required extension ".idx", companion ".img" (KH2.IDX -> KH2.IMG).
ContainerModule container_module();

}  // namespace animdex::kh2_idx
