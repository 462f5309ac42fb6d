#pragma once
// Builds GameCube-layout FPK archives the way GNTool's FPKPacker does (containers.md section 1), for
// tests and the bench: header {0, count, 0x10, total size}, 32-byte entries, then each member's
// stored bytes in entry order, padded with zeros to 16 bytes.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace animdex::fpk {

struct FpkInput {
  std::string path;              // the full path; names of 16+ bytes keep their last 15 bytes
  std::vector<std::byte> bytes;  // the plain member
  bool compress = true;          // PRS-compress it (GNTool: as the original was)
};

// The name as GNTool stores it: the path itself when shorter than 16 bytes, else its last 15.
std::string stored_fpk_name(std::string_view path);

// The archive bytes. A compressed member is stored compressed even when PRS makes it larger (GNTool
// does so); only when PRS output happens to be exactly as long as the plain bytes is it stored raw,
// because readers take equal sizes to mean "raw". Throws std::length_error when a size would not fit
// the format's 31-bit fields.
std::vector<std::byte> write_fpk(const std::vector<FpkInput>& entries);

}  // namespace animdex::fpk
