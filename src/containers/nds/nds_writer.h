#pragma once
// Builds minimal valid .nds ROM images laid out the way ndstool and the retail ROMs are (for tests
// and the bench): the 0x4000-byte header, a 4-byte ARM9 and ARM7 stub, optional ARM9 overlays
// (table + files), the FNT and FAT, then the files; every section and file starts 0x200-aligned
// and the gaps are 0xFF. The file ends at the last file's end (a trimmed ROM).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace animdex::nds {

struct NdsFile {
  std::string path;  // '/'-separated, nested directories allowed (see nitro_fnt::build_fnt)
  std::vector<std::byte> bytes;
};

struct NdsOptions {
  std::string title = "ANIMDEX";   // at most 12 bytes
  std::string game_code = "ADXE";  // exactly 4 bytes
  std::vector<std::vector<std::byte>> arm9_overlays;  // file IDs 0..k-1, unnamed, listed in the ARM9 overlay table
};

// Header fields: title, game code, maker "00", ARM9/ARM7 offsets and sizes, overlay table, FNT,
// FAT, device capacity, used ROM size, header size 0x4000, the logo CRC field 0xCF56 (the logo's
// own 156 bytes are left zero) and the header CRC. File IDs follow the FNT (build_fnt's order),
// after the overlays. Throws std::invalid_argument on a bad title, game code or path.
std::vector<std::byte> build_nds(const std::vector<NdsFile>& files, const NdsOptions& options);
std::vector<std::byte> build_nds(const std::vector<NdsFile>& files, std::string_view title = "ANIMDEX",
                                 std::string_view game_code = "ADXE");

}  // namespace animdex::nds
