#pragma once
// Builds GameCube disc images for tests and the bench, laid out as Dolphin's DirectoryBlob builds
// them (containers.md section 2): boot.bin, an empty bi2.bin area, the FST at 0x2440 with each
// directory's entries sorted by upper-cased name, then the files' bytes in FST order.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace animdex::gcm {

struct GcmFile {
  std::string path;  // '/'-separated from the root, no leading '/'; directories are implied
  std::vector<std::byte> bytes;
};

// Where build_gcm puts the FST (right after boot.bin and bi2.bin, where the apploader would start).
inline constexpr std::size_t kBuiltFstOffset = 0x2440;

// A valid, trimmed GameCube image (it ends after the last file, 32-byte aligned): boot.bin with
// the magic, `game_id` (at most 6 bytes) and `title` (shorter than 0x3E0 bytes), FST offset, size
// and max size; no apploader or main.dol (offset 0). Files are 32-byte aligned after the FST.
// Throws std::invalid_argument for an empty path component, a path given twice or used both as a
// file and a directory, or an over-long game id or title.
std::vector<std::byte> build_gcm(const std::vector<GcmFile>& files, std::string_view game_id = "G4NJDA",
                                 std::string_view title = "animdex test disc");

}  // namespace animdex::gcm
