// Fuzzes detection and parsing through the registry, as the indexer calls them: under the same
// memory budget, and every model that parses must keep the model's rules (model/validate.h) and
// come back exactly from the key blob the database would store.
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/parse_budget.h"
#include "formats/registry.h"
#include "db/key_blob.h"
#include "model/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const auto* format = animdex::detect_format(bytes, size);
  if (!format) return 0;
  animdex::ScopedParseBudget budget;
  auto parsed = format->parse(bytes);  // a ParseFailure escaping here is a bug: libFuzzer reports it
  if (!parsed.ok() && parsed.error().expected.empty()) __builtin_trap();
  if (!parsed.ok()) return 0;
  if (animdex::model::validate(parsed.value())) __builtin_trap();  // NaN or a broken rule leaked
  // Every track as the database stores it: encode -> decode gives the parsed keys exactly.
  for (const auto& animation : parsed.value().animations)
    for (const auto& track : animation.tracks) {
      auto decoded = animdex::model::decode_key_blob(animdex::model::encode_key_blob(track.keys, track.splines));
      if (!decoded || !identical(decoded.value().keys, track.keys) || !identical(decoded.value().splines, track.splines))
        __builtin_trap();
    }
  return 0;
}
