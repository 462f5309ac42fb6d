#pragma once
// Nintendo DS BIOS-style LZ10 / LZ11 streams ("LZ77", containers.md section 3 "LZ10 / LZ11"): the
// header, a decoder that produces exactly the declared size or a precise error, and greedy
// compressors (for tests and the bench). No container module: two codecs (kLz10Codec, kLz11Codec)
// whose sniff lets the framework decide a DS member is LZ (first byte 0x10/0x11, decode succeeds,
// known content inside).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "containers/container.h"
#include "core/result.h"

namespace animdex::lz {

enum class LzType : std::uint8_t { lz10 = 0x10, lz11 = 0x11 };  // the header's first byte

struct LzHeader {
  LzType type = LzType::lz10;
  std::uint64_t size = 0;                // decompressed bytes the header declares
  std::size_t header_length = 4;         // 4, or 8 when the u24 size is 0 and a u32 follows
};

// The header of an LZ10/LZ11 stream: byte 0 = 0x10 or 0x11, u24 size; a u24 of 0 means a u32 size
// follows. nullopt when the type byte is another one or the header is cut short.
std::optional<LzHeader> read_lz_header(std::span<const std::byte> stored);

// Input bytes left after the last token may be BIOS padding (0-3 bytes); this many or more
// suggests the stream is not what the header says (the caller may warn).
inline constexpr std::uint64_t kLzTrailingWarnBytes = 4;

struct LzDecoded {
  std::vector<std::byte> bytes;     // min(size, produce) bytes
  std::uint64_t trailing_bytes = 0; // input left after the token that completed the output (only
                                    // meaningful when the whole output was produced; else 0)
};

// Decodes `stored` (header included) whose header declares `size` bytes (the caller read it with
// read_lz_header and checked it against its caps); stops once min(size, produce) bytes exist.
// Errors (offset in `stored`): no LZ header, `size` differing from the header, missing input, a
// back-reference before the start of the output, a copy running past `size`.
Result<LzDecoded> lz_decode(std::span<const std::byte> stored, std::uint64_t size, std::uint64_t produce = UINT64_MAX);

// The same as the container layer's decompressor shape: only the bytes.
Result<std::vector<std::byte>> lz_decompress(std::span<const std::byte> stored, std::uint64_t size,
                                             std::uint64_t produce = UINT64_MAX);

// The codecs files.compression names "lz10" and "lz11" (registered in container_registry.cpp).
extern const Codec kLz10Codec;
extern const Codec kLz11Codec;
// The codec of a stream with this header.
Compression lz_codec(const LzHeader& header);

// Greedy compressors with a bounded hash-chain search over the 4096-byte window; the output has
// the 4-byte header (8 when the size is 0 or above 0xFFFFFF) and is zero-padded to 4 bytes like
// the BIOS-style tools' output. LZ11 uses its 2-, 3- and 4-byte tokens as the match length needs.
// Throws std::length_error for inputs of 4 GiB or more (the header cannot say their size).
std::vector<std::byte> lz10_compress(std::span<const std::byte> plain);
std::vector<std::byte> lz11_compress(std::span<const std::byte> plain);

}  // namespace animdex::lz
