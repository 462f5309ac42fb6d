// Fuzzes the key blob reader (db/key_blob.h) that the `keyframes` and `key_splines` virtual
// tables run on every blob they read: any bytes are a blob or an error, never a read out of
// bounds; a blob that opens decodes, and encoding what it decoded gives the same keys back.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "db/key_blob.h"

using animdex::model::KeyBlob;
using animdex::model::KeyBlobColumn;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  auto opened = KeyBlob::open(bytes);
  if (!opened) {
    if (opened.error().expected.empty()) __builtin_trap();  // an error must say what was expected
    return 0;
  }
  const KeyBlob& blob = opened.value();
  // Every column of the first and last keys, as the virtual tables read them (a blob of constants
  // may declare millions of keys in a few bytes: those are read at their ends only).
  for (const std::uint64_t key : {std::uint64_t{0}, blob.key_count() - 1}) {
    if (key >= blob.key_count()) continue;
    for (int column = 0; column < static_cast<int>(animdex::model::kKeyBlobColumns); ++column) {
      const auto which = static_cast<KeyBlobColumn>(column);
      (void)blob.real_or_null(which, key);
      (void)blob.integer_or_null(which, key);
    }
  }
  if (blob.key_count() > 4096) return 0;
  auto decoded = animdex::model::decode_key_blob(bytes);
  if (!decoded) __builtin_trap();  // it opened
  const auto again = animdex::model::encode_key_blob(decoded.value().keys, decoded.value().splines);
  auto round_trip = animdex::model::decode_key_blob(again);
  if (!round_trip || !identical(round_trip.value().keys, decoded.value().keys) ||
      !identical(round_trip.value().splines, decoded.value().splines))
    __builtin_trap();
  return 0;
}
