#pragma once
// GameCube disc images (GCM/ISO, containers.md section 2): boot.bin, then the FST (file system
// table) that names every file with its disc offset and length. The listing reads only boot.bin
// and the FST by range (a full disc is 1.4 GB); members are the FST's files, stored raw.
#include <cstddef>
#include <cstdint>
#include <span>

#include "containers/container.h"

namespace animdex::gcm {

// boot.bin layout (containers.md section 2; big-endian).
inline constexpr std::uint64_t kBootSize = 0x440;
inline constexpr std::uint64_t kGameIdOffset = 0x000;
inline constexpr std::uint64_t kGameIdSize = 6;
inline constexpr std::uint64_t kWiiMagicOffset = 0x018;
inline constexpr std::uint32_t kWiiMagic = 0x5D1C9EA3;
inline constexpr std::uint64_t kMagicOffset = 0x01C;
inline constexpr std::uint32_t kGameCubeMagic = 0xC2339F3D;
inline constexpr std::uint64_t kTitleOffset = 0x020;
inline constexpr std::uint64_t kTitleSize = 0x3E0;
inline constexpr std::uint64_t kDolOffsetField = 0x420;
inline constexpr std::uint64_t kFstOffsetField = 0x424;
inline constexpr std::uint64_t kFstSizeField = 0x428;
inline constexpr std::uint64_t kFstMaxSizeField = 0x42C;
// One FST entry: type u8, name offset u24, offset-or-parent u32, length-or-end u32.
inline constexpr std::uint64_t kFstEntrySize = 12;

// The GameCube magic 0xC2339F3D (big-endian) at 0x1C.
bool detect_gcm(std::span<const std::byte> head, std::uint64_t size);

// Every file of the FST (directories are not members), in FST order: path = full path from the
// root without a leading '/' (names' bytes kept as stored, Shift-JIS included), stored_name = path,
// offset = disc offset in input.data, stored_size = size = length, compression none. boot.bin and
// the FST are read from input.table; each file's range must lie inside input.data (a trimmed
// image is fine). Validation mirrors Dolphin's FileSystemGCWii (see NOTES.md); errors give the
// offset in the image of the field that broke the rule. A path met again (ASCII letters compared
// case-insensitively, as Dolphin looks paths up) keeps the first entry and warns.
Result<MemberList> list_gcm(const ContainerInput& input, const ContainerLimits& limits);

// id "gcm": detect_gcm + list_gcm.
ContainerModule container_module();

}  // namespace animdex::gcm
