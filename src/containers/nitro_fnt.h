#pragma once
// The Nitro file name table (FNT), shared by the .nds ROM's NitroFS and the NARC's BTNF chunk
// (containers.md section 3, ".nds ROM (NitroFS)" and "NARC"): the one walker both readers use, and
// the one builder both writers use.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "containers/container.h"

namespace animdex::nitro_fnt {

inline constexpr std::uint16_t kFirstDirectoryId = 0xF000;  // directory k has ID 0xF000 + k

struct FntFile {
  std::uint32_t file_id = 0;
  std::string path;                 // '/'-joined directory and file names, no leading '/'
  std::uint64_t record_offset = 0;  // of its sub-table record, in the container (for messages)
};

struct FntListing {
  std::uint16_t root_first_file_id = 0;  // IDs below it are a ROM's overlays (no names)
  std::uint16_t directory_count = 0;     // D, from the root entry's last field
  std::vector<FntFile> files;            // every named file, sorted by file ID
  std::vector<std::string> warnings;
};

// Walks the FNT held in `fnt`, which starts at offset `base` of its container: the directory
// table, each reachable directory's sub-table once (cycle guard), every file record. Checks: the
// root entry fits and D >= 1, the table's 8*D bytes fit, sub-table offsets and records lie inside
// the FNT, record type 0x80 is refused, names hold no '/' or NUL and are not "." or "..", child IDs
// name one of the D directories and no directory is entered twice, file IDs are below
// `file_count` and named once; the names' total length stays within limits.max_table_size and the
// file count within limits.max_members. Throws ParseFailure at the offending byte (base-relative).
// Sub-tables may start anywhere inside the FNT (a nameless NARC's root points into its own entry).
// With FntFaults::skip a broken rule (not a cap) is a warning instead, naming the offset and the
// rule, and only the names it spoils are lost: a sub-table stops at a record it cannot read, a bad
// child directory or file ID is skipped, a file ID named twice keeps its first name, a name with
// '/' or NUL or "."/".." is kept (listing makes it a plain path), and a root entry that cannot be
// read leaves every file unnamed. Caps (named files, path bytes) fail in both modes.
enum class FntFaults { fail, skip };
FntListing walk_fnt(std::span<const std::byte> fnt, std::uint64_t base, std::uint64_t file_count,
                    const ContainerLimits& limits, FntFaults faults = FntFaults::fail);

struct FntLayout {
  std::vector<std::byte> table;          // the FNT bytes, unpadded
  std::vector<std::size_t> file_order;   // file ID first_file_id + i is paths[file_order[i]]
};

// An FNT naming `paths` ('/'-separated, components 1..127 bytes, no duplicates): directories get
// IDs breadth first in order of first appearance, each directory's files consecutive IDs from
// first_file_id in input order, records in order of first appearance (files and directories
// interleaved). Throws std::invalid_argument on a path it cannot store.
FntLayout build_fnt(const std::vector<std::string>& paths, std::uint16_t first_file_id);

// The 8-byte FNT of an archive without names (every real NARC's BTNF): root sub-table offset 4,
// first file 0, 1 directory; offset 4 is the first-file field's 0x00 byte, an empty sub-table.
std::vector<std::byte> nameless_fnt();

}  // namespace animdex::nitro_fnt
