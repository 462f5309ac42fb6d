#pragma once
// GNT4 FPK archives, GameCube layout (containers.md section 1): a 16-byte big-endian header, then
// 32-byte entries (16-byte name, 0, offset, stored size, uncompressed size), then the data.
// Members whose stored size differs from their size are Eighting PRS (prs.h).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "containers/container.h"
#include "containers/fpk/prs.h"

namespace animdex::fpk {

inline constexpr std::uint64_t kHeaderSize = 16;
inline constexpr std::uint64_t kEntrySize = 32;
inline constexpr std::size_t kNameSize = 16;
inline constexpr std::size_t kTruncatedNameLength = 15;  // what a 16+-byte path keeps (its last 15 bytes)

// Cheap and strict (NOTES.md "Detection"): entry count >= 1, the table inside `size`, the first
// entry's name non-empty printable ASCII ending in a NUL within 16 bytes, its data offset after the
// table and its data range inside `size`.
bool detect_fpk(std::span<const std::byte> head, std::uint64_t size);

// Reads and validates the header and entry table from input.table (every rule of the note; errors
// name the offset of the field that breaks it); members' ranges are checked against input.data.
// path = the restored name (#2, #3... appended to repeats), stored_name = the name as stored.
Result<MemberList> list_fpk(const ContainerInput& input, const ContainerLimits& limits);

// GNTool's GNT4 prefix table (hr/ -> chr/, te/ -> unite/, ... and vs/ before ...4201.txg), applied
// only to names of exactly 15 bytes, the only ones the packer truncated. Other names come back as is.
std::string restore_name(std::string_view stored_name);

// id "fpk": detect_fpk + list_fpk; members are opened by the framework (prs_decompress for prs).
ContainerModule container_module();

}  // namespace animdex::fpk
