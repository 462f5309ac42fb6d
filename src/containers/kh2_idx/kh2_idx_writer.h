#pragma once
// Builds KH2.IDX + KH2.IMG pairs the way the game's files are laid out (containers.md section 4),
// for tests and the bench: entries hashed from their names and sorted by (Hash32, Hash16), each
// entry's bytes at a 2048-byte block of the IMG (in the order given), padded with zeros to the
// next block; compressed entries are kh2_compress streams.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "containers/kh2_idx/kh2_idx_container.h"

namespace animdex::kh2_idx {

struct Kh2Entry {
  std::string name;  // the path the hashes are taken of, e.g. "obj/P_EX100.mset"
  std::vector<std::byte> bytes;
  bool compress = false;
  bool streamed = false;  // bit 15; never together with compress
};

struct Kh2Image {
  std::vector<std::byte> idx, img;
};

// Throws std::invalid_argument for compress together with streamed or two names with the same
// hashes, std::length_error when an entry needs more than 0x4000 blocks (the block field) or the
// IMG more than 2^32 blocks.
Kh2Image build_kh2_idx_img(const std::vector<Kh2Entry>& entries);

// The IDX bytes for these entries as given (order and descriptors kept): for crafted inputs.
std::vector<std::byte> write_kh2_idx(std::span<const Kh2IdxEntry> entries);

}  // namespace animdex::kh2_idx
