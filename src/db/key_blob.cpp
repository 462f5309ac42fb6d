#include "db/key_blob.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <cstring>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "core/byte_reader.h"

namespace animdex::model {

namespace {

using Column = KeyBlobColumn;
using Code = KeyBlobCode;

constexpr std::size_t index_of(Column column) { return static_cast<std::size_t>(column); }

bool is_integer_column(Column column) {
  return column == Column::frame || column == Column::shape || column == Column::linear_flag;
}

std::uint64_t width_of(Code code) {
  switch (code) {
    case Code::i8: case Code::u8: return 1;
    case Code::u16: case Code::bf16: case Code::i16: return 2;
    case Code::f32: case Code::i32: return 4;
    case Code::f64: case Code::i64: return 8;
    default: return 0;
  }
}

// Bytes a column takes for `key_count` keys.
std::uint64_t column_bytes(Code code, std::uint64_t key_count) {
  if (code == Code::constant) return 8;
  if (code == Code::frames_over_rate) return 2;
  return width_of(code) * key_count;
}

// The narrowest code that gives every value back bit for bit (-0.0 stays -0.0).
Code choose_real(std::span<const double> values) {
  if (values.empty()) return Code::absent;
  const auto first = std::bit_cast<std::uint64_t>(values[0]);
  bool constant = true, zero = true, u8 = true, u16 = true, f32 = true, bf16 = true;
  // Each narrow code's test runs only while the code is still possible: that branch turns once at
  // most, so it predicts well, where testing every code on every value mispredicted per value
  // (the sign of a rotation decides the u16 test's path), and the encoder was most of the parallel stage.
  for (const double value : values) {
    const auto bits = std::bit_cast<std::uint64_t>(value);
    constant &= bits == first;
    zero &= bits == 0;
    if (f32) {
      // In float32's range (checked before the cast; false for NaN) and back unchanged.
      const bool in_f32_range = std::fabs(value) <= FLT_MAX;
      const float narrow = static_cast<float>(in_f32_range ? value : 0.0);
      f32 = in_f32_range && std::bit_cast<std::uint64_t>(static_cast<double>(narrow)) == bits;
      bf16 = bf16 && f32 && (std::bit_cast<std::uint32_t>(narrow) & 0xFFFFu) == 0;
    }
    if (u16) {
      // A whole number in 0..65535 (not -0.0, not NaN), the range checked before the integer cast.
      u16 = !std::signbit(value) && value <= 65535.0 && static_cast<double>(static_cast<std::uint32_t>(value)) == value;
      u8 = u8 && u16 && value <= 255.0;
    }
  }
  const std::uint64_t n = values.size();
  Code best = Code::f64;
  // Ties go to the earlier: u16 before bf16, so frame-number times can stand for their frames.
  for (const auto& [allowed, code] : {std::pair{f32, Code::f32}, {u16, Code::u16}, {bf16, Code::bf16},
                                     {u8, Code::u8}, {constant, Code::constant}, {zero, Code::zero}})
    if (allowed && column_bytes(code, n) < column_bytes(best, n)) best = code;
  return best;
}

Code choose_integer(std::span<const std::int64_t> values) {
  if (values.empty()) return Code::absent;
  const auto extremes = std::minmax_element(values.begin(), values.end());
  const std::int64_t low = *extremes.first, high = *extremes.second;
  const auto fits = [low, high](auto type_tag) {
    using T = decltype(type_tag);
    return low >= std::numeric_limits<T>::min() && high <= std::numeric_limits<T>::max();
  };
  Code narrowest = Code::i64;
  if (fits(std::int8_t{})) narrowest = Code::i8;
  else if (fits(std::uint8_t{})) narrowest = Code::u8;
  else if (fits(std::int16_t{})) narrowest = Code::i16;
  else if (fits(std::int32_t{})) narrowest = Code::i32;
  if (low != high) return narrowest;
  if (low == 0) return Code::zero;
  return column_bytes(Code::constant, values.size()) < column_bytes(narrowest, values.size()) ? Code::constant
                                                                                             : narrowest;
}

// Appends to `out` through room made once for the largest the blob can be (the encoder computes
// it), so a value costs a store, not a vector resize; finish() trims the room to what was written.
// The room is not zeroed first (ByteBuffer): every byte of it that stays is written.
class BlobWriter {
 public:
  BlobWriter(ByteBuffer& out, std::size_t capacity) : bytes_(out), start_(out.size()), size_(out.size()) {
    out.resize(start_ + capacity);
  }
  ~BlobWriter() {
    if (!finished_) bytes_.resize(start_);  // a throw leaves `out` as it was, with no unwritten room
  }
  BlobWriter(const BlobWriter&) = delete;
  BlobWriter& operator=(const BlobWriter&) = delete;
  void u8(std::uint8_t value) { unsigned_le(value, 1); }
  void unsigned_le(std::uint64_t bits, std::size_t width) {
    if (width > bytes_.size() - size_) throw std::logic_error("key blob: a column outgrew its computed size");
    for (std::size_t i = 0; i < width; ++i) bytes_[size_ + i] = static_cast<std::byte>((bits >> (8 * i)) & 0xFF);
    size_ += width;
  }
  void real(double value, Code code) {
    const auto f32_bits = [value] { return std::bit_cast<std::uint32_t>(static_cast<float>(value)); };
    switch (code) {
      case Code::constant: case Code::f64: unsigned_le(std::bit_cast<std::uint64_t>(value), 8); break;
      case Code::f32: unsigned_le(f32_bits(), 4); break;
      case Code::bf16: unsigned_le(f32_bits() >> 16, 2); break;
      case Code::u16: unsigned_le(static_cast<std::uint64_t>(value), 2); break;
      case Code::u8: unsigned_le(static_cast<std::uint64_t>(value), 1); break;
      default: break;
    }
  }
  void integer(std::int64_t value, Code code) {
    const std::uint64_t width = code == Code::constant ? 8 : width_of(code);
    unsigned_le(static_cast<std::uint64_t>(value), width);  // two's complement, truncated to the width
  }
  std::size_t finish() {  // the blob's size
    bytes_.resize(size_);
    finished_ = true;
    return size_ - start_;
  }

 private:
  ByteBuffer& bytes_;
  std::size_t start_ = 0;
  std::size_t size_ = 0;
  bool finished_ = false;
};

template <typename T>
void write_column(BlobWriter& writer, std::span<const T> values, Code code) {
  if (code == Code::absent || code == Code::same_as_time || code == Code::zero) return;
  if (code == Code::constant) values = values.first(1);
  for (const T value : values) {
    if constexpr (std::is_same_v<T, double>) writer.real(value, code);
    else writer.integer(value, code);
  }
}

// Rates are in [1, 65535], so frame / rate stays within float32's range for any 64-bit frame.
double time_from_frame(std::int64_t frame, double rate) {
  return static_cast<double>(static_cast<float>(static_cast<double>(frame) / rate));
}

// The rate at which every time is the float32 nearest frame / rate (GNT: 60), if there is one.
std::optional<double> frame_rate_of(const KeyColumns& keys) {
  const auto times = keys.time();
  const auto frames = keys.frame();
  if (frames.size() != keys.size() || keys.empty() || !(times.back() > 0)) return std::nullopt;
  const double ratio = static_cast<double>(frames.back()) / times.back();
  if (!(ratio >= 0.5 && ratio < 65535.5)) return std::nullopt;
  const double rate = std::round(ratio);
  for (std::size_t k = 0; k < keys.size(); ++k)
    if (std::bit_cast<std::uint64_t>(time_from_frame(frames[k], rate)) != std::bit_cast<std::uint64_t>(times[k]))
      return std::nullopt;
  return rate;
}

bool frames_equal_times(const KeyColumns& keys, Code time_code) {
  if ((time_code != Code::u16 && time_code != Code::u8) || keys.frame().size() != keys.size()) return false;
  for (std::size_t k = 0; k < keys.size(); ++k)
    if (static_cast<double>(keys.frame()[k]) != keys.time()[k]) return false;
  return true;
}

bool code_allowed(Column column, Code code) {
  if (code == Code::absent || code == Code::constant || code == Code::zero || code == Code::u8) return true;
  if (code == Code::same_as_time) return column == Column::frame;
  if (code == Code::frames_over_rate) return column == Column::time;
  const bool integer_code = code == Code::i8 || code == Code::i16 || code == Code::i32 || code == Code::i64;
  const bool real_code = code == Code::u16 || code == Code::bf16 || code == Code::f32 || code == Code::f64;
  return is_integer_column(column) ? integer_code : real_code;
}

}  // namespace

ByteBuffer encode_key_blob(const KeyColumns& keys, const SplineColumns& splines) {
  ByteBuffer blob;
  append_key_blob(blob, keys, splines);
  return blob;
}

std::size_t append_key_blob(ByteBuffer& out, const KeyColumns& keys, const SplineColumns& splines) {
  std::array<Code, kKeyBlobColumns> codes{};
  codes[index_of(Column::time)] = choose_real(keys.time());
  codes[index_of(Column::frame)] =
      frames_equal_times(keys, codes[0]) ? Code::same_as_time : choose_integer(keys.frame());
  // Times that are frames over a rate cost 8 bytes instead of a width per key.
  const auto rate = codes[index_of(Column::frame)] == Code::same_as_time ? std::nullopt : frame_rate_of(keys);
  if (rate && column_bytes(Code::frames_over_rate, keys.size()) < column_bytes(codes[0], keys.size()))
    codes[index_of(Column::time)] = Code::frames_over_rate;
  for (std::size_t v = 0; v < 4; ++v) codes[index_of(Column::x) + v] = choose_real(keys.value(v));

  // The splines are columns already. A parameter the track does not carry is zero on every key: the
  // `zero` code, which stores nothing (what choose_real gives a column of zeros).
  const auto shapes = splines.shape();
  const auto linear_flags = splines.linear_flag();
  const auto params = [&](std::size_t p) { return splines.parameter(p); };
  codes[index_of(Column::shape)] = choose_integer(shapes);
  codes[index_of(Column::linear_flag)] = choose_integer(linear_flags);
  for (std::size_t p = 0; p < 6; ++p)
    codes[index_of(Column::p1) + p] =
        p < splines.parameter_count() ? choose_real(params(p)) : (splines.empty() ? Code::absent : Code::zero);

  std::uint64_t size = 1 + 7 + 4;  // magic, codes, a key count of at most 4 bytes
  for (const Code code : codes) size += column_bytes(code, keys.size());
  BlobWriter writer(out, size);
  writer.u8(kKeyBlobMagic | kKeyBlobVersion);
  for (std::size_t c = 0; c < codes.size(); c += 2)
    writer.u8(static_cast<std::uint8_t>(static_cast<unsigned>(codes[c]) | (static_cast<unsigned>(codes[c + 1]) << 4)));
  for (std::uint64_t count = keys.size();; count >>= 7) {  // LEB128
    writer.u8(static_cast<std::uint8_t>((count & 0x7F) | (count >= 0x80 ? 0x80 : 0)));
    if (count < 0x80) break;
  }
  if (codes[0] == Code::frames_over_rate) writer.unsigned_le(static_cast<std::uint64_t>(*rate), 2);
  else write_column<double>(writer, keys.time(), codes[0]);
  write_column<std::int64_t>(writer, keys.frame(), codes[1]);
  for (std::size_t v = 0; v < 4; ++v) write_column<double>(writer, keys.value(v), codes[2 + v]);
  write_column<std::int64_t>(writer, shapes, codes[index_of(Column::shape)]);
  write_column<std::int64_t>(writer, linear_flags, codes[index_of(Column::linear_flag)]);
  for (std::size_t p = 0; p < 6; ++p) write_column<double>(writer, params(p), codes[index_of(Column::p1) + p]);
  return writer.finish();
}

Result<KeyBlob> KeyBlob::open(std::span<const std::byte> bytes) {
  return catch_parse_failure<KeyBlob>([&] {
    const ByteReader reader(bytes);
    reader.require(0, kKeyBlobHeaderSize, "a key blob header of at least 9 bytes");
    if (reader.u8(0) != (kKeyBlobMagic | kKeyBlobVersion))
      fail_at(0, fmt::format("key blob magic and version 0x{:02X}", kKeyBlobMagic | kKeyBlobVersion),
              fmt::format("0x{:02X}", reader.u8(0)));
    KeyBlob blob;
    blob.bytes_ = bytes;
    std::uint64_t offset = 8;
    for (int shift = 0;; shift += 7, ++offset) {  // LEB128, at most 4 bytes for 2^24 keys
      const std::uint8_t byte = reader.u8(offset);
      blob.key_count_ |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80)) break;
      if (shift == 21) fail_at(offset, "a key count of at most 4 bytes");
    }
    ++offset;
    if (blob.key_count_ > kMaxBlobKeys)
      fail_at(8, fmt::format("at most {} keys", kMaxBlobKeys), std::to_string(blob.key_count_));
    const std::uint64_t data_start = offset;
    for (std::size_t c = 0; c < kKeyBlobColumns; ++c) {
      const auto column = static_cast<Column>(c);
      const std::uint64_t at = 1 + c / 2;
      const auto code = static_cast<Code>((reader.u8(at) >> (4 * (c % 2))) & 0x0F);
      if (!code_allowed(column, code))
        fail_at(at, fmt::format("a code column {} allows", c), std::to_string(static_cast<int>(code)));
      if (code != Code::absent && blob.key_count_ == 0) fail_at(at, "no column data for zero keys");
      blob.codes_[c] = code;
      blob.offsets_[c] = offset;
      offset += column_bytes(code, blob.key_count_);
    }
    if (blob.key_count_ > 0 && !blob.has(Column::time)) fail_at(1, "a time column for keys");
    const Code time = blob.code(Column::time);
    if (blob.code(Column::frame) == Code::same_as_time && time != Code::u16 && time != Code::u8)
      fail_at(1, "frames equal to times only when times are 8- or 16-bit integers");
    if (time == Code::frames_over_rate) {
      const Code frame = blob.code(Column::frame);
      if (frame == Code::absent || frame == Code::same_as_time) fail_at(1, "stored frames for times over a rate");
      if (reader.contains(data_start, 2) && reader.u16(data_start, LE) == 0)
        fail_at(data_start, "a frame rate of at least 1", "0");
    }
    bool any_spline_column = false;
    for (std::size_t c = index_of(Column::linear_flag); c < kKeyBlobColumns; ++c)
      any_spline_column = any_spline_column || blob.codes_[c] != Code::absent;
    for (std::size_t c = index_of(Column::p1); c < kKeyBlobColumns; ++c)
      if (blob.has_splines() != (blob.codes_[c] != Code::absent))
        fail_at(1 + c / 2, "spline parameters exactly when the blob has spline shapes");
    if (!blob.has_splines() && any_spline_column) fail_at(1 + index_of(Column::shape) / 2, "spline shapes");
    if (offset != bytes.size())
      fail_at(bytes.size(), fmt::format("a key blob of {} bytes for {} keys", offset, blob.key_count_),
              fmt::format("{} bytes", bytes.size()));
    return blob;
  });
}

double KeyBlob::real(Column column, std::uint64_t key) const {
  const ByteReader reader(bytes_);
  const Code code = this->code(column);
  const std::uint64_t at = offsets_[index_of(column)] + width_of(code) * key;
  switch (code) {
    case Code::constant: return std::bit_cast<double>(reader.u64(offsets_[index_of(column)], LE));
    case Code::frames_over_rate: return time_from_frame(integer(Column::frame, key), reader.u16(offsets_[0], LE));
    case Code::u8: return reader.u8(at);
    case Code::zero: return 0.0;
    case Code::f64: return std::bit_cast<double>(reader.u64(at, LE));
    case Code::f32: return reader.f32(at, LE);
    case Code::bf16: return std::bit_cast<float>(static_cast<std::uint32_t>(reader.u16(at, LE)) << 16);
    case Code::u16: return reader.u16(at, LE);
    default: return 0.0;
  }
}

std::int64_t KeyBlob::integer(Column column, std::uint64_t key) const {
  const ByteReader reader(bytes_);
  const Code code = this->code(column);
  const std::uint64_t at = offsets_[index_of(column)] + width_of(code) * key;
  switch (code) {
    case Code::constant: return static_cast<std::int64_t>(reader.u64(offsets_[index_of(column)], LE));
    case Code::same_as_time: return static_cast<std::int64_t>(real(Column::time, key));
    case Code::i64: return static_cast<std::int64_t>(reader.u64(at, LE));
    case Code::i32: return reader.i32(at, LE);
    case Code::i16: return reader.i16(at, LE);
    case Code::i8: return static_cast<std::int8_t>(reader.u8(at));
    case Code::u8: return reader.u8(at);
    case Code::zero: return 0;
    default: return 0;
  }
}

std::optional<double> KeyBlob::real_or_null(Column column, std::uint64_t key) const {
  if (!has(column)) return std::nullopt;
  return real(column, key);
}

std::optional<std::int64_t> KeyBlob::integer_or_null(Column column, std::uint64_t key) const {
  if (!has(column)) return std::nullopt;
  return integer(column, key);
}

Result<DecodedKeys> decode_key_blob(std::span<const std::byte> bytes) {
  auto opened = KeyBlob::open(bytes);
  if (!opened) return opened.error();
  const KeyBlob& blob = opened.value();
  DecodedKeys decoded;
  unsigned columns = blob.has(Column::frame) ? KeyColumns::kFrame : 0;
  for (std::size_t v = 0; v < 4; ++v)
    if (blob.has(static_cast<Column>(index_of(Column::x) + v))) columns |= KeyColumns::kX << v;
  // Sized for the declared count (at most kMaxBlobKeys, open() checked): a blob of constants may
  // declare that many in a few bytes, which is why the virtual tables read through KeyBlob instead.
  KeyColumns& keys = decoded.keys = KeyColumns(blob.key_count(), columns);
  for (std::uint64_t k = 0; k < blob.key_count(); ++k) {
    keys.time()[k] = blob.real(Column::time, k);
    if (blob.has(Column::frame)) keys.frame()[k] = blob.integer(Column::frame, k);
    for (std::size_t v = 0; v < 4; ++v)
      if (!keys.value(v).empty()) keys.value(v)[k] = blob.real(static_cast<Column>(index_of(Column::x) + v), k);
  }
  if (!blob.has_splines()) return decoded;
  // Every parameter column is kept (the blob says which are zero, not which the track carried).
  SplineColumns& splines = decoded.splines =
      SplineColumns(blob.key_count(), SplineColumns::kMaxParameters, blob.has(Column::linear_flag));
  for (std::uint64_t k = 0; k < blob.key_count(); ++k) {
    splines.shape()[k] = blob.integer(Column::shape, k);
    if (splines.has_linear_flags()) splines.linear_flag()[k] = blob.integer(Column::linear_flag, k);
    for (std::size_t p = 0; p < SplineColumns::kMaxParameters; ++p)
      splines.parameter(p)[k] = blob.real(static_cast<Column>(index_of(Column::p1) + p), k);
  }
  return decoded;
}

namespace {

bool same_bits(std::span<const double> a, std::span<const double> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace

bool identical(const KeyColumns& a, const KeyColumns& b) {
  // Column by column, as spans: a track without keys carries nothing, whatever it was sized with.
  if (!same_bits(a.time(), b.time())) return false;
  if (!std::equal(a.frame().begin(), a.frame().end(), b.frame().begin(), b.frame().end())) return false;
  for (std::size_t v = 0; v < 4; ++v)
    if (!same_bits(a.value(v), b.value(v))) return false;
  return true;
}

bool identical(const SplineColumns& a, const SplineColumns& b) {
  if (a.size() != b.size() || a.has_linear_flags() != b.has_linear_flags()) return false;
  if (!std::ranges::equal(a.shape(), b.shape()) || !std::ranges::equal(a.linear_flag(), b.linear_flag())) return false;
  // A parameter one side does not carry is zero there (+0.0, bit for bit).
  const std::vector<double> zeros(a.size());
  const auto parameter = [&](const SplineColumns& s, std::size_t p) {
    return p < s.parameter_count() ? s.parameter(p) : std::span<const double>(zeros);
  };
  for (std::size_t p = 0; p < SplineColumns::kMaxParameters; ++p)
    if (!same_bits(parameter(a, p), parameter(b, p))) return false;
  return true;
}

}  // namespace animdex::model
