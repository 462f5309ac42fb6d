#pragma once
// KH2's IMG compression (containers.md section 4, "KH2 compression"), read backwards: trailing 0x00
// padding, then (from the end) a key byte K, the output size as 4 big-endian bytes before it, and
// before those the tokens, read from the last one down while the output fills from its end. A
// token is a literal byte x != K; K 0 (read in that order: the escaped key); or K d c, a copy of
// c + 3 bytes with out[p] = out[p + d] as p decreases (d = 1..255).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "containers/container.h"
#include "core/result.h"

namespace animdex::kh2_idx {

inline constexpr std::uint64_t kKh2MaxDistance = 255;  // d is one byte, 0 marks the escaped key
inline constexpr std::uint64_t kKh2MinCopy = 3;        // c + 3
inline constexpr std::uint64_t kKh2MaxCopy = 258;

// Decodes `stored` (a whole stored range, zero padding included) into exactly min(size, produce)
// bytes. `size` is the IDX's uncompressed size and must equal the size the stream embeds. The
// stream decodes from its end, so with produce < size the whole stream is still decoded (the bytes
// past `produce` pass through a 256-byte window; only min(size, produce) bytes are allocated) and
// the first `produce` bytes come back. An all-zero (or empty) input is the empty stream. Errors
// carry the offset in `stored`: no size before the key, size mismatch, a copy reaching before the
// output start or from past its end, input missing for the output, input left over.
Result<std::vector<std::byte>> kh2_decompress(std::span<const std::byte> stored, std::uint64_t size,
                                              std::uint64_t produce = UINT64_MAX);

// The codec files.compression names "kh2" (registered in container_registry.cpp).
extern const Codec kKh2Codec;

// Greedy compressor whose streams both kh2_decompress and OpenKh's Img.Decompress decode: key =
// the least used byte of 1..255 (escaped where it occurs), copies of 3..258 bytes at distances
// 1..255 found by hash chains over the input read backwards (as the decoder fills it), the size
// and key last. No padding (the IMG writer pads to 2048-byte blocks). Throws std::length_error
// for an input of 4 GiB or more (the size field is 32 bits).
std::vector<std::byte> kh2_compress(std::span<const std::byte> plain);

}  // namespace animdex::kh2_idx
