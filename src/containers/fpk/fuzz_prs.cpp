// Fuzzes Eighting PRS: the first 2 bytes (big-endian) are the output size (so under 64 KiB), the
// rest the stream. Decoding must succeed or fail cleanly with an offset inside the stream; decoding
// a prefix (produce = size / 2) must agree with the whole. Then the whole input is compressed and
// must decode back to itself.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "containers/fpk/prs.h"
#include "core/byte_reader.h"

using namespace animdex;

namespace {

template <typename T>
void require_clean_error(const Result<T>& result, std::size_t input_size) {
  if (result.error().expected.empty() || result.error().offset > input_size) __builtin_trap();
}

void decode_with_declared_size(std::span<const std::byte> bytes) {
  if (bytes.size() < 2) return;
  const std::uint64_t size = ByteReader(bytes).u16(0, BE);
  const auto stored = bytes.subspan(2);
  const auto whole = fpk::prs_decompress(stored, size);
  const auto prefix = fpk::prs_decompress(stored, size, size / 2);
  if (!prefix.ok()) {
    require_clean_error(prefix, stored.size());
    if (whole.ok()) __builtin_trap();  // the prefix reads a subset of the same tokens
  } else if (prefix.value().size() != size / 2) {
    __builtin_trap();
  }
  if (!whole.ok()) return require_clean_error(whole, stored.size());
  if (whole.value().size() != size) __builtin_trap();
  if (!std::equal(prefix.value().begin(), prefix.value().end(), whole.value().begin())) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  decode_with_declared_size(bytes);
  const auto packed = fpk::prs_compress(bytes);
  const auto unpacked = fpk::prs_decompress(packed, bytes.size());
  if (!unpacked.ok() || !std::equal(bytes.begin(), bytes.end(), unpacked.value().begin(), unpacked.value().end()))
    __builtin_trap();
  return 0;
}
