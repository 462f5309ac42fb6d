// Fuzzes KH2 decompression and compression (containers.md section 4): any input decodes or fails
// cleanly with an offset inside it; a decodable stream's head (produce < size) is the prefix of its
// whole output; and compressing the input decodes back to it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "containers/kh2_idx/kh2_compression.h"

using namespace animdex::kh2_idx;

namespace {

constexpr std::uint64_t kMaxSize = 1 << 20;

// The size the stream embeds (4 bytes before its key), or a small guess when it has none.
std::uint64_t embedded_size(std::span<const std::byte> bytes) {
  std::size_t end = bytes.size();
  while (end > 0 && bytes[end - 1] == std::byte{0}) --end;
  if (end < 5) return 0;
  std::uint64_t size = 0;
  for (std::size_t i = end - 5; i < end - 1; ++i) size = (size << 8) | std::to_integer<std::uint8_t>(bytes[i]);
  return size;
}

void check_decode(std::span<const std::byte> bytes) {
  const std::uint64_t size = std::min(embedded_size(bytes), kMaxSize);
  auto whole = kh2_decompress(bytes, size);
  if (!whole.ok()) {
    if (whole.error().expected.empty() || whole.error().offset > bytes.size()) __builtin_trap();
    return;
  }
  if (whole.value().size() != size) __builtin_trap();
  const std::uint64_t produce = size / 3;
  auto head = kh2_decompress(bytes, size, produce);
  if (!head.ok() || head.value().size() != produce) __builtin_trap();
  if (!std::equal(head.value().begin(), head.value().end(), whole.value().begin())) __builtin_trap();
}

void check_round_trip(std::span<const std::byte> bytes) {
  const auto packed = kh2_compress(bytes);
  auto decoded = kh2_decompress(packed, bytes.size());
  if (!decoded.ok() || !std::equal(decoded.value().begin(), decoded.value().end(), bytes.begin(), bytes.end()))
    __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  check_decode(bytes);
  check_round_trip(bytes);
  return 0;
}
