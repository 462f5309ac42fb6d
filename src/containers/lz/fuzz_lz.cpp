// Fuzzes the LZ10/LZ11 decoder and compressors: any input read as a stream either decodes to
// exactly its header's size (capped at 1 MiB) or fails cleanly with an offset inside it; a head
// decode is a prefix of the full one; the input compressed by both compressors decodes back to it.
#include <cstddef>
#include <cstdint>
#include <span>

#include "containers/lz/lz.h"

using namespace animdex;
using namespace animdex::lz;

namespace {

constexpr std::uint64_t kMaxFuzzOutput = 1 << 20;

void check_error(const ParseError& error, std::size_t size) {
  if (error.expected.empty() || error.offset > size) __builtin_trap();
}

void decode_as_stream(std::span<const std::byte> bytes) {
  const auto header = read_lz_header(bytes);
  if (!header || header->size > kMaxFuzzOutput) return;
  const auto full = lz_decode(bytes, header->size);
  const auto head = lz_decompress(bytes, header->size, header->size / 2);
  if (!full.ok()) {
    check_error(full.error(), bytes.size());
    if (!head.ok()) check_error(head.error(), bytes.size());
    return;
  }
  const auto& plain = full.value().bytes;
  if (plain.size() != header->size || full.value().trailing_bytes > bytes.size()) __builtin_trap();
  if (!head.ok() || head.value().size() != header->size / 2) __builtin_trap();
  if (!std::equal(head.value().begin(), head.value().end(), plain.begin())) __builtin_trap();
  const auto wrong_size = lz_decompress(bytes, header->size + 1);  // the size argument must match
  if (wrong_size.ok()) __builtin_trap();
  check_error(wrong_size.error(), bytes.size());
}

void round_trip(std::span<const std::byte> bytes) {
  for (const auto& stored : {lz10_compress(bytes), lz11_compress(bytes)}) {
    const auto header = read_lz_header(stored);
    if (!header || header->size != bytes.size()) __builtin_trap();
    const auto decoded = lz_decode(stored, header->size);
    if (!decoded.ok() || decoded.value().trailing_bytes >= kLzTrailingWarnBytes) __builtin_trap();
    if (!std::equal(decoded.value().bytes.begin(), decoded.value().bytes.end(), bytes.begin(), bytes.end())) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  decode_as_stream(bytes);
  round_trip(bytes);
  return 0;
}
