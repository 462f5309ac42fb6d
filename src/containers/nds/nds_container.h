#pragma once
// Nintendo DS ROM images (.nds) and their NitroFS file system (containers.md section 3 ".nds ROM
// (NitroFS)"): header fields, the FAT (absolute start/end pairs) and the FNT (shared walker in
// narc/nitro_fnt.h). Members are the files the FNT names; overlays (unnamed IDs below the root's
// first file ID) are not listed.
#include <cstddef>
#include <cstdint>
#include <span>

#include "containers/container.h"

namespace animdex::nds {

inline constexpr std::uint32_t kNdsHeaderSize = 0x4000;  // the header size field at 0x84
inline constexpr std::uint64_t kNdsHeaderUsed = 0x200;   // bytes of the header that carry fields
inline constexpr std::uint16_t kNdsLogoCrc = 0xCF56;     // CRC of the Nintendo logo, at 0x15C

// CRC-16/MODBUS (reflected 0xA001, initial 0xFFFF), the DS header checksum at 0x15E over 0x000-0x15D.
std::uint16_t nds_crc16(std::span<const std::byte> bytes);

// Strict enough not to claim random files: size >= 0x200; header size field 0x4000; logo CRC
// field 0xCF56; FNT (>= 8 bytes) and FAT (a multiple of 8 bytes) starting at or after 0x200 and
// ending inside the file. `head` needs the first 0x160 bytes.
bool detect_nds(std::span<const std::byte> head, std::uint64_t size);

// The named files of NitroFS in file-ID order: path = stored_name = the FNT path, offset = the FAT
// start (absolute in the ROM), compression none, may_be_compressed = true. The header checks of
// detect_nds are errors here; a named file whose FAT entry is 0/0 (unused) is skipped with a
// warning; a wrong header CRC, a used-ROM size past the file and the overlay count are warnings.
Result<MemberList> list_nds(const ContainerInput& input, const ContainerLimits& limits);

ContainerModule container_module();

}  // namespace animdex::nds
