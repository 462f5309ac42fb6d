#pragma once
// Builds NARC archives the way the real ones are laid out (containers.md section 3 "NARC"; the 9
// archives of corpus/real/containers): header, BTAF, BTNF, GMIF; members 4-aligned with 0xFF
// padding after each one (the last included), BTNF padded to 4 with 0xFF. For tests and the bench.
#include <cstddef>
#include <string>
#include <vector>

namespace animdex::narc {

struct NarcMember {
  std::string name;  // '/'-separated path inside a named archive; ignored when nameless
  std::vector<std::byte> bytes;
};

// nameless: the 8-byte FNT every real archive has, members in input order (index = position).
// named: an FNT of the names with nested directories; file IDs, and so the BTAF and GMIF order,
// follow the FNT (directories breadth first in order of first appearance, each directory's files
// in input order; see build_fnt). Throws std::invalid_argument on names build_fnt refuses, and
// std::length_error past 65535 members or 4 GiB.
std::vector<std::byte> build_narc(const std::vector<NarcMember>& members, bool named);

}  // namespace animdex::narc
