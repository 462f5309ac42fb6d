#pragma once
// Eighting PRS, the LZ77 variant inside GNT4's FPK archives (containers.md section 1, "Eighting PRS
// decoding"): flag bits MSB first, control bytes read from the stream only when a bit is needed,
// long-copy words big-endian. Not Sega PRS (LSB-first flags, little-endian words): neither decodes
// the other's streams.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "containers/container.h"
#include "core/result.h"

namespace animdex::fpk {

// The token limits both directions share (containers.md section 1).
inline constexpr std::uint64_t kPrsShortMaxDistance = 256;  // short copy: d = 256 - b
inline constexpr std::uint64_t kPrsLongMaxDistance = 8192;  // long copy: d = 8192 - (w >> 3)
inline constexpr std::uint64_t kPrsMaxLength = 256;         // long copy with its extra length byte

// Decodes `stored` into exactly min(size, produce) bytes (allocated once; the caller has checked
// `size` against its caps). Decoding stops as soon as that many bytes exist: no end marker or
// trailer is required and bytes after that point are not looked at. Errors carry the offset in
// `stored` and name the rule: copy before the output start, overrun past `size`, missing input,
// premature end marker.
Result<std::vector<std::byte>> prs_decompress(std::span<const std::byte> stored, std::uint64_t size,
                                              std::uint64_t produce = UINT64_MAX);

// The codec files.compression names "prs" (registered in container_registry.cpp).
extern const Codec kPrsCodec;

// Greedy compressor in GNTool's manner (window 8191, lengths up to 256, short copies for 2..5
// bytes within 256, long copies otherwise), ending with flag bits 0,1 and three 0x00 bytes.
// prs_decompress(prs_compress(plain), plain.size()) == plain. Linear time: hash chains with a
// capped number of candidates per position.
std::vector<std::byte> prs_compress(std::span<const std::byte> plain);

}  // namespace animdex::fpk
