#pragma once
// ISO9660 images (containers.md section 5), such as PS2 DVDs: volume descriptors from sector 16,
// the primary descriptor's root directory, then the directory tree, read extent by extent through
// input.table (an image is GBs; only descriptors and directories are read). Both-endian fields:
// the little-endian copy is used, a big-endian copy that disagrees is a warning.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "containers/container.h"

namespace animdex::iso9660 {

inline constexpr std::uint64_t kSectorSize = 2048;
inline constexpr std::uint64_t kFirstDescriptorSector = 16;
inline constexpr std::uint64_t kFirstDescriptorOffset = kFirstDescriptorSector * kSectorSize;  // 0x8000
inline constexpr int kMaxDescriptors = 32;
inline constexpr int kMaxDirectoryDepth = 8;  // the root is level 1 (ECMA-119 6.8.2.1)
inline constexpr std::uint64_t kRootRecordOffset = 0x9C;  // in the primary volume descriptor
inline constexpr std::uint64_t kMinRecordSize = 33;       // a directory record before its name

enum DescriptorType : std::uint8_t { kBootRecord = 0, kPrimary = 1, kSupplementary = 2, kTerminator = 255 };

// The head (the framework's first kContainerDetectBytes = 0x8800) holds sector 16: type 1 or 2 and
// "CD001" at 0x8001. False when the head is shorter.
bool detect_iso9660(std::span<const std::byte> head, std::uint64_t size);

// The recorded name as a path component: the ";1" version dropped, then a trailing '.' (a name
// without extension is recorded "NAME.;1").
std::string strip_version(std::string_view recorded);

// Lists every file of the primary volume's tree. Errors (absolute offset in the image): no
// descriptor set (missing "CD001", no primary, no terminator within 32), a block size other than
// 2048, a record too short for its name or crossing its sector, a directory extent outside the
// image, visited twice, or nested deeper than 8, a cap (directory bytes > max_table_size, files >
// max_members). Warnings: both-endian copies disagreeing, the image shorter than its volume, files
// left out (extent outside the image, multi-extent, unusable or repeated name).
// path = the full path without versions ("DIR/FILE.BIN"), stored_name = the path with each name
// as recorded ("DIR/FILE.BIN;1"), offset = (extent + extended attribute blocks) * 2048.
Result<MemberList> list_iso9660(const ContainerInput& input, const ContainerLimits& limits);

// id "iso9660": detect_iso9660 + list_iso9660; members are raw.
ContainerModule container_module();

}  // namespace animdex::iso9660
