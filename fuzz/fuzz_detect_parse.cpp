// Fuzzes detection and parsing through the registry, as the indexer calls them.
#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const auto* format = animdex::detect_format(bytes, size);
  if (!format) return 0;
  auto parsed = format->parse(bytes);
  if (!parsed.ok() && parsed.error().expected.empty()) __builtin_trap();
  return 0;
}
