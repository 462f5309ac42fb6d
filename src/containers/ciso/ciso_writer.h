#pragma once
// Builds CISO images for tests and the bench, as CISO tools write them (containers.md section 2):
// the 0x8000-byte header, then every block that is not all zeros, whole, in disc order.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace animdex::ciso {

// `disc` cut into `block_size` blocks (the last one zero-padded); all-zero blocks are absent
// (map 0), the others present (map 1) and stored. Throws std::invalid_argument for a block size
// outside 32 KiB..16 MiB or a disc needing more than 0x7FF8 blocks.
std::vector<std::byte> build_ciso(std::span<const std::byte> disc, std::uint32_t block_size = 0x8000);

}  // namespace animdex::ciso
