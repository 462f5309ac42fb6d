#pragma once
// The stored layout of a track's keys: one BLOB per track (`bone_tracks.keys`), its columns packed
// one after another, each in the narrowest width that holds every value exactly. The indexer
// encodes it in the parallel stage; the `keyframes` and `key_splines` virtual tables
// (db/key_tables) read it by index without decoding the whole track.
//
// Layout (little-endian):
//   0x00  u8   0xB0 + version (1)
//   0x01  u8 x 7  one 4-bit code per column, in KeyBlobColumn order, low nibble first
//   0x08  key_count (at most kMaxBlobKeys), unsigned LEB128 (1 byte below 128 keys, at most 4)
//   then each present column's data, in the same order: a constant is one f64 (real columns) or
//         i64 (integer columns), `frames_over_rate` one u16 (the rate), `zero` nothing; any other
//         code is key_count values of its width. The blob ends exactly after the last column.
// Codes: real columns (time, x..w, p1..p6) u8 / u16 (integral 0..255 / 0..65535), bf16 (upper half
// of an f32), f32 or f64; integer columns (frame, shape, linear_flag) u8, i8, i16, i32, i64, or
// `same_as_time` (frame only, when time is u8 or u16). `frames_over_rate` (time only): each time is
// the float32 nearest frame / rate, as GNT stores frame / 60 (frames then stored explicitly). Any
// column may be `absent` (time only when key_count is 0), `constant` or `zero` (+0.0 or 0 on every
// key). `shape` present means the track has splines; linear_flag and p1..p6 then follow it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/byte_buffer.h"
#include "core/result.h"
#include "model/animation.h"

namespace animdex::model {

enum class KeyBlobColumn : std::uint8_t { time, frame, x, y, z, w, shape, linear_flag, p1, p2, p3, p4, p5, p6 };
inline constexpr std::size_t kKeyBlobColumns = 14;

enum class KeyBlobCode : std::uint8_t {
  absent = 0, constant = 1, same_as_time = 2,
  u16 = 3, bf16 = 4, f32 = 5, f64 = 6,       // real columns
  i8 = 7, i16 = 8, i32 = 9, i64 = 10,        // integer columns
  frames_over_rate = 11,                     // time only
  zero = 12, u8 = 13,                        // any column; real or integer columns
};

inline constexpr std::uint8_t kKeyBlobVersion = 1;
inline constexpr std::uint8_t kKeyBlobMagic = 0xB0;  // the high nibble of the first byte
inline constexpr std::uint64_t kKeyBlobHeaderSize = 0x09;  // with a key count below 128
inline constexpr std::uint64_t kMaxBlobKeys = kMaxTrackKeys;

// A track's keys and splines as one blob. Requires a model that keeps the rules (model::validate):
// columns empty or one entry per key, splines empty or one per key, linear_flag on all or none.
ByteBuffer encode_key_blob(const KeyColumns& keys, const SplineColumns& splines);
// The same blob appended to `out` (the index packs a file's blobs end to end: one buffer per file);
// returns its size.
std::size_t append_key_blob(ByteBuffer& out, const KeyColumns& keys, const SplineColumns& splines);

// A checked view of a blob: open() verifies the header, every code and the exact size, so the
// accessors below read in bounds for any index < key_count().
class KeyBlob {
 public:
  static Result<KeyBlob> open(std::span<const std::byte> bytes);

  std::uint64_t key_count() const noexcept { return key_count_; }
  bool has(KeyBlobColumn column) const noexcept { return code(column) != KeyBlobCode::absent; }
  bool has_splines() const noexcept { return has(KeyBlobColumn::shape); }
  KeyBlobCode code(KeyBlobColumn column) const noexcept { return codes_[static_cast<std::size_t>(column)]; }
  double real(KeyBlobColumn column, std::uint64_t key) const;           // time, x..w, p1..p6
  std::int64_t integer(KeyBlobColumn column, std::uint64_t key) const;  // frame, shape, linear_flag
  std::optional<double> real_or_null(KeyBlobColumn column, std::uint64_t key) const;
  std::optional<std::int64_t> integer_or_null(KeyBlobColumn column, std::uint64_t key) const;

 private:
  std::span<const std::byte> bytes_;
  std::uint64_t key_count_ = 0;
  std::array<KeyBlobCode, kKeyBlobColumns> codes_{};
  std::array<std::uint64_t, kKeyBlobColumns> offsets_{};
};

// The whole track back, for tests and the fuzzer's round trip: encode -> decode gives the keys exactly.
struct DecodedKeys {
  KeyColumns keys;
  SplineColumns splines;
};
Result<DecodedKeys> decode_key_blob(std::span<const std::byte> bytes);

// Bit for bit (-0.0 is not 0.0; a NaN equals the same NaN): what "exactly" means for the round trip.
bool identical(const KeyColumns& a, const KeyColumns& b);
bool identical(const SplineColumns& a, const SplineColumns& b);

}  // namespace animdex::model
