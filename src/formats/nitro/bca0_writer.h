#pragma once
// Writes BCA0 files from the parser's structs: the Nitro header, one JNT0 block, a resource
// dictionary with its Patricia tree, and each J.AC laid out as the files in the corpus are (tags,
// Rot3, Rot5, then value arrays grouped R, S fx16, T fx16, S fx32, T fx32, identical arrays shared).
// Real files rewrite byte for byte; tests use it to build files no real sample has.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/nitro/bca0_types.h"

namespace animdex::nsbca {

std::vector<std::byte> write_nsbca(const NsbcaFile& file);

// The tag word that matches a node's channel sources (bits 0-13) with `node_id` in bits 24-31.
// A node whose every channel is identity gets the IDENTITY bit and nothing else.
std::uint32_t tag_for(const NodeAnimation& node, int node_id);

}  // namespace animdex::nsbca
