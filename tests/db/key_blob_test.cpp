// The key blob (db/key_blob.h): encode -> decode gives the keys and splines back exactly, each
// column in the narrowest width that holds it, and a damaged blob is an error naming its offset.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "db/key_blob.h"

using namespace animdex;
using namespace animdex::model;

namespace {

DecodedKeys round_trip(const KeyColumns& keys, const SplineColumns& splines = {}) {
  const auto blob = encode_key_blob(keys, splines);
  auto decoded = decode_key_blob(blob);
  if (!decoded) FAIL(decoded.error().message());
  return std::move(decoded).value();
}

KeyBlobCode code_of(const KeyColumns& keys, KeyBlobColumn column, const SplineColumns& splines = {}) {
  const auto blob = encode_key_blob(keys, splines);
  auto opened = KeyBlob::open(blob);
  REQUIRE(opened);
  return opened.value().code(column);
}

// Columns from whole vectors: an empty vector is a column the track does not carry.
KeyColumns columns(const std::vector<double>& time, const std::vector<std::int64_t>& frame = {},
                   const std::array<std::vector<double>, 4>& values = {}) {
  unsigned carried = frame.empty() ? 0 : KeyColumns::kFrame;
  for (std::size_t v = 0; v < 4; ++v) carried |= values[v].empty() ? 0 : KeyColumns::kX << v;
  KeyColumns keys(time.size(), carried);
  std::copy(time.begin(), time.end(), keys.time().begin());
  std::copy(frame.begin(), frame.end(), keys.frame().begin());
  for (std::size_t v = 0; v < 4; ++v) std::copy(values[v].begin(), values[v].end(), keys.value(v).begin());
  return keys;
}

KeyColumns gnt_like() {  // f32 times frame / 60, the frames, 16-bit coordinates (low halves zero)
  KeyColumns keys;
  for (int k = 0; k < 5; ++k) {
    const float time = static_cast<float>(7 * k) / 60.0F;
    keys.push_back({time, 7 * k, std::bit_cast<float>(0x3F80'0000u + (static_cast<std::uint32_t>(k) << 16)), -0.0,
                    0.5, std::bit_cast<float>(0xC2B4'0000u + (static_cast<std::uint32_t>(k) << 16))});  // -90 and on
  }
  return keys;
}

}  // namespace

TEST_CASE("key blob: each column in the narrowest exact width, given back bit for bit", "[model][key_blob]") {
  const KeyColumns gnt = gnt_like();
  CHECK(identical(round_trip(gnt).keys, gnt));  // bit for bit: -0.0 stays -0.0
  KeyColumns positive_zero = gnt;
  std::fill(positive_zero.y().begin(), positive_zero.y().end(), 0.0);
  CHECK(positive_zero == gnt);  // == compares values...
  CHECK_FALSE(identical(positive_zero, gnt));  // ...identical() the bits
  CHECK(code_of(gnt, KeyBlobColumn::time) == KeyBlobCode::frames_over_rate);  // 8 bytes for all five
  KeyColumns off_rate = gnt;
  off_rate.time()[3] = std::nextafter(static_cast<float>(off_rate.time()[3]), 1.0F);
  CHECK(round_trip(off_rate).keys == off_rate);
  CHECK(code_of(off_rate, KeyBlobColumn::time) == KeyBlobCode::f32);
  CHECK(code_of(gnt, KeyBlobColumn::frame) == KeyBlobCode::i8);
  CHECK(code_of(gnt, KeyBlobColumn::x) == KeyBlobCode::bf16);
  CHECK(code_of(gnt, KeyBlobColumn::z) == KeyBlobCode::constant);  // 0.5 on every key
  CHECK(code_of(gnt, KeyBlobColumn::w) == KeyBlobCode::bf16);

  KeyColumns frames;  // NSBCA / LightWave v1: integral frame times, frames equal to them, f64 values
  for (int k = 0; k < 40; ++k) frames.push_back({static_cast<double>(k), k, 0.1 * k /* not exact in f32 */,
                                                 1.0 /* the same on every key */, std::nullopt, std::nullopt});
  CHECK(round_trip(frames).keys == frames);
  CHECK(code_of(frames, KeyBlobColumn::time) == KeyBlobCode::u8);
  CHECK(code_of(frames, KeyBlobColumn::frame) == KeyBlobCode::same_as_time);
  CHECK(code_of(frames, KeyBlobColumn::x) == KeyBlobCode::f64);
  CHECK(code_of(frames, KeyBlobColumn::y) == KeyBlobCode::constant);
  CHECK(code_of(frames, KeyBlobColumn::z) == KeyBlobCode::absent);
  CHECK(encode_key_blob(frames, {}).size() == kKeyBlobHeaderSize + 40 * 1 + 40 * 8 + 8);
  CHECK(kKeyBlobHeaderSize == 9);
  KeyColumns with_zeros(frames.size(), frames.columns() | KeyColumns::kZ);  // zeros cost nothing
  std::copy(frames.time().begin(), frames.time().end(), with_zeros.time().begin());
  std::copy(frames.frame().begin(), frames.frame().end(), with_zeros.frame().begin());
  std::copy(frames.x().begin(), frames.x().end(), with_zeros.x().begin());
  std::copy(frames.y().begin(), frames.y().end(), with_zeros.y().begin());
  CHECK(code_of(with_zeros, KeyBlobColumn::z) == KeyBlobCode::zero);
  CHECK(round_trip(with_zeros).keys == with_zeros);

  const KeyColumns wide = columns(  // values no narrower width holds
      {0.0, 1e300, std::numeric_limits<double>::max()},
      {std::numeric_limits<std::int64_t>::min(), 0, std::numeric_limits<std::int64_t>::max()},
      {std::vector<double>{std::numeric_limits<double>::denorm_min(), -1e-300, 65536.0}, {}, {}, {}});
  CHECK(round_trip(wide).keys == wide);
  CHECK(code_of(wide, KeyBlobColumn::frame) == KeyBlobCode::i64);
}

TEST_CASE("key blob: splines, linear flags, empty and time-only tracks", "[model][key_blob]") {
  KeyColumns keys;
  SplineColumns splines;
  std::vector<KeySpline> expected;
  for (int k = 0; k < 3; ++k) {
    keys.push_back({k * 0.5, std::nullopt, static_cast<double>(k), std::nullopt, std::nullopt, std::nullopt});
    expected.push_back({k == 2 ? 3 : 0, k % 2, {0.25, -0.25, 0.0, 1.0 / 3.0, 0, 0}});
    splines.push_back(expected.back());
  }
  // The columns carry p1..p4, the last non-zero parameter.
  CHECK(splines.parameter_count() == 4);
  CHECK(splines.parameter(4).empty());
  const auto decoded = round_trip(keys, splines);
  CHECK(decoded.keys == keys);
  REQUIRE(decoded.splines.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(decoded.splines[k].shape == expected[k].shape);
    CHECK(decoded.splines[k].linear_flag == expected[k].linear_flag);
    CHECK(decoded.splines[k].params == expected[k].params);
  }
  CHECK(identical(decoded.splines, splines));
  CHECK(decoded.splines == splines);
  SplineColumns unflagged;
  for (auto spline : expected) {
    spline.linear_flag.reset();
    unflagged.push_back(spline);
  }
  CHECK_FALSE(round_trip(keys, unflagged).splines[0].linear_flag.has_value());
  CHECK_FALSE(identical(unflagged, splines));
  // Linear flags are on every spline or none: the container refuses a mix at once.
  CHECK_THROWS_AS(unflagged.push_back(expected[0]), std::invalid_argument);

  CHECK(round_trip(KeyColumns{}).keys.empty());
  // A track sized for columns but with no keys carries nothing (a GNT coordinate bone with zero
  // keys, a fuzzer finding): it equals, and round-trips as, the empty track.
  const KeyColumns sized_empty(0, KeyColumns::kFrame | KeyColumns::kXYZW);
  CHECK(sized_empty == KeyColumns{});
  CHECK(sized_empty.columns() == 0);
  CHECK(identical(round_trip(sized_empty).keys, sized_empty));
  // A moved-from track is empty and takes keys again (its counts went with its buffers).
  KeyColumns moved = gnt_like();
  const KeyColumns taken = std::move(moved);
  CHECK(taken == gnt_like());
  CHECK(moved.empty());  // NOLINT(bugprone-use-after-move): the state after a move is the point
  CHECK(moved.time().empty());
  moved.push_back({1.0, std::nullopt, 2.0, std::nullopt, std::nullopt, std::nullopt});
  CHECK(moved.size() == 1);
  CHECK(moved.x()[0] == 2.0);
  CHECK(encode_key_blob(KeyColumns{}, {}).size() == kKeyBlobHeaderSize);
  const KeyColumns times_only = columns({0.0, 0.25});
  const auto times = round_trip(times_only);
  CHECK(times.keys == times_only);
  CHECK(times.splines.empty());
}

TEST_CASE("key blob: a damaged blob is an error at its offset, never a read out of bounds", "[model][key_blob]") {
  const auto good = encode_key_blob(gnt_like(), {});
  REQUIRE(KeyBlob::open(good));
  const auto error_of = [](std::span<const std::byte> bytes) {
    auto opened = KeyBlob::open(bytes);
    REQUIRE_FALSE(opened);
    return opened.error();
  };
  CHECK(error_of({}).offset == 0);
  auto bad_magic = good;
  bad_magic[0] = std::byte{'X'};
  CHECK(error_of(bad_magic).message() == "at offset 0x0: expected key blob magic and version 0xB1, found 0x58");
  auto truncated = good;
  truncated.pop_back();
  CHECK(error_of(truncated).message() ==
        "at offset 0x" + fmt::format("{:X}", truncated.size()) + ": expected a key blob of " +
            std::to_string(good.size()) + " bytes for 5 keys, found " + std::to_string(truncated.size()) + " bytes");
  auto longer = good;
  longer.push_back(std::byte{0});
  CHECK_FALSE(KeyBlob::open(longer));
  auto bad_code = good;  // x is column 2: the low nibble of byte 2
  bad_code[2] = std::byte{static_cast<std::uint8_t>(KeyBlobCode::i32)};
  CHECK(error_of(bad_code).message().starts_with("at offset 0x2: expected a code column 2 allows"));
  std::vector<std::byte> huge(good.begin(), good.begin() + 8);  // 2^24 + 1 keys, in LEB128
  for (const int byte : {0x81, 0x80, 0x80, 0x08}) huge.push_back(std::byte{static_cast<std::uint8_t>(byte)});
  huge.insert(huge.end(), good.begin() + 9, good.end());
  CHECK(error_of(huge).message() == "at offset 0x8: expected at most 16777216 keys, found 16777217");
  auto rate_without_frames = good;  // time over a rate, frames made the same as the times
  rate_without_frames[1] = std::byte{static_cast<std::uint8_t>(0x0B | (static_cast<int>(KeyBlobCode::same_as_time) << 4))};
  CHECK_FALSE(KeyBlob::open(rate_without_frames));
  auto zero_rate = good;
  zero_rate[kKeyBlobHeaderSize] = zero_rate[kKeyBlobHeaderSize + 1] = std::byte{0};
  CHECK(error_of(zero_rate).message() == "at offset 0x9: expected a frame rate of at least 1, found 0");
}
