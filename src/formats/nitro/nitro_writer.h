#pragma once
// Writes Nitro G3D files for the sample and the tests (the builders of each kind use it): the
// 16-byte header, blocks, and resource dictionaries with their Patricia tree, laid out as the
// converter lays them out (nitro-models-and-anims.md "Conventions").
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace animdex::nitro {

using Bytes = std::vector<std::byte>;

// A dictionary over `names` whose entries carry `data` (each exactly `unit_size` bytes).
Bytes dictionary_bytes(const std::vector<std::string>& names, std::uint16_t unit_size, const std::vector<Bytes>& data);

// A file of `blocks` (each block's bytes start with its magic and size, as block_bytes makes them).
Bytes file_bytes(std::string_view file_magic, std::uint16_t version, const std::vector<Bytes>& blocks);

// A block: magic, size, then `body`, padded to 4 bytes.
Bytes block_bytes(std::string_view block_magic, const Bytes& body);

// A one-block animation file: the set dictionary (offsets from the block start) over the named
// animations, each animation's bytes (header first, offsets inside relative to its start) 4-aligned.
Bytes animation_file_bytes(std::string_view file_magic, std::string_view block_magic,
                           const std::vector<std::pair<std::string, Bytes>>& animations);

// Little-endian appenders for the builders.
void put_u8(Bytes& out, std::uint8_t value);
void put_u16(Bytes& out, std::uint16_t value);
void put_u32(Bytes& out, std::uint32_t value);
void put_name16(Bytes& out, const std::string& name);
void put_text(Bytes& out, std::string_view text);  // raw bytes, NULs included
void pad_to_4(Bytes& out);
void patch_u32(Bytes& out, std::size_t at, std::uint32_t value);
void patch_u16(Bytes& out, std::size_t at, std::uint16_t value);

}  // namespace animdex::nitro
