#pragma once
// Builds ISO9660 images the way mastering tools lay them out (containers.md section 5; ECMA-119),
// for tests and the bench: 16 zero sectors, the primary volume descriptor, the terminator, the L
// and M path tables, the directories (records sorted by name, "." and ".." first, never crossing a
// sector), then the files, each from a new sector. Files are recorded "NAME;1" ("NAME.;1" when the
// name has no '.'); every both-endian field carries both copies.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace animdex::iso9660 {

struct IsoFile {
  std::string path;  // '/'-separated, e.g. "KH2.IDX" or "DIR/SUB/FILE.BIN"
  std::vector<std::byte> bytes;
};

// Throws std::invalid_argument for an empty path or component, a component ending in '.', holding
// ';' or a NUL, longer than 200 bytes, the same name twice in a directory (case-insensitively, as
// readers compare), or a folder deeper than level 8; std::length_error for an image past 2^32 blocks
// or a file of 4 GiB or more.
std::vector<std::byte> build_iso9660(const std::vector<IsoFile>& files, std::string_view volume_id = "ANIMDEX");

}  // namespace animdex::iso9660
