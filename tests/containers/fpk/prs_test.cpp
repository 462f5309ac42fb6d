// Eighting PRS (containers.md section 1): the note's vectors, `produce` prefixes, compressor round
// trips on several kinds of data, and one corrupt stream per decoding rule with its offset.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "containers/container_test_support.h"
#include "containers/fpk/prs.h"
#include "support/corrupt_input.h"
#include "support/byte_list.h"

using namespace animdex;
using namespace animdex::fpk;
using test::Bytes;

namespace {

Bytes decoded(const Bytes& stored, std::uint64_t size, std::uint64_t produce = UINT64_MAX) {
  auto result = prs_decompress(stored, size, produce);
  INFO((result.ok() ? std::string("ok") : result.error().message()));
  REQUIRE(result.ok());
  return result.value();
}

void expect_error(const Bytes& stored, std::uint64_t size, const std::string& text, std::uint64_t offset,
                  std::uint64_t produce = UINT64_MAX) {
  test::expect_parse_error(prs_decompress(stored, size, produce), text, offset);
}

Bytes random_bytes(std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes out(count);
  for (auto& b : out) b = static_cast<std::byte>(rng() & 0xFF);
  return out;
}

// Words from a small vocabulary with numbers: repeats at many distances, like real text.
Bytes text_bytes(std::size_t count) {
  static const char* const kWords[] = {"frame ", "bone ", "rotation ", "translation ", "scale ", "key ",
                                       "naruto ", "sasuke ", "0000.mot ", "chr/nar/ ", "\n", "= ", "; "};
  std::mt19937 rng(7);
  std::string text;
  while (text.size() < count) {
    text += kWords[rng() % std::size(kWords)];
    if (rng() % 5 == 0) text += std::to_string(rng() % 1000);
  }
  text.resize(count);
  return test::ascii_bytes(text);
}

void check_round_trip(const Bytes& plain) {
  const Bytes packed = prs_compress(plain);
  CAPTURE(plain.size(), packed.size());
  REQUIRE(packed.size() >= 4);
  // GNTool's trailer: the last three bytes are 0x00 (end marker word + length byte).
  CHECK(packed[packed.size() - 1] == std::byte{0});
  CHECK(packed[packed.size() - 2] == std::byte{0});
  CHECK(packed[packed.size() - 3] == std::byte{0});
  CHECK(decoded(packed, plain.size()) == plain);
  // Decoding the whole stream with one byte more than it holds reaches the end marker.
  expect_error(packed, plain.size() + 1, "premature end", packed.size() - 3);
}

// GNTool's PRSUncompressor.uncompress, ported as written: no end marker (it runs until the input
// is used up), copies and literals clamped at the output's end, distances from sign-extended Java
// bytes. Over-reading the input throws (std::vector::at), as the Java array access would.
Bytes gntool_uncompress(const Bytes& in, std::size_t size) {
  Bytes out(size);
  std::size_t in_at = 0, out_at = 0;
  int bits_left = 0;
  unsigned flags = 0;
  auto bits = [&](int count) {
    unsigned value = 0;
    for (; count > 0; --count) {
      if (bits_left == 0) {
        flags = std::to_integer<unsigned>(in.at(in_at++));
        bits_left = 8;
      }
      value = value << 1 | (flags >> 7 & 1);
      flags = (flags << 1) & 0xFF;
      --bits_left;
    }
    return value;
  };
  auto next = [&] { return std::to_integer<std::int64_t>(in.at(in_at++)); };
  while (in_at < in.size()) {
    if (bits(1) == 1) {
      if (out_at < size) out[out_at++] = in.at(in_at++);
      continue;
    }
    std::int64_t length = 0, position = 0;
    if (bits(1) == 0) {
      length = bits(2) + 2;
      position = next() - 256;
    } else {
      const std::int64_t high = next();
      const std::int64_t word = (high << 8 | next()) - 65536;
      length = word & 7;
      position = word >> 3;  // arithmetic, as Java's >>=
      length = length == 0 ? next() + 1 : length + 2;
    }
    position += static_cast<std::int64_t>(out_at);
    for (std::int64_t i = 0; i < length; ++i)
      if (out_at < size) out[out_at++] = out.at(static_cast<std::size_t>(position++));
  }
  return out;
}

}  // namespace

TEST_CASE("PRS decodes the note's test vectors", "[prs]") {
  SECTION("ten zeros: a literal, then a long copy n=9 d=1") {
    CHECK(decoded(test::byte_list({0xA8, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00}), 10) == Bytes(10, std::byte{0}));
  }
  SECTION("ABABAB: two literals, then a short copy n=4 d=2") {
    CHECK(decoded(test::byte_list({0xC9, 0x41, 0x42, 0xFE, 0x00, 0x00, 0x00}), 6) == test::ascii_bytes("ABABAB"));
  }
  SECTION("no trailer needed: decoding stops once the size is reached") {
    CHECK(decoded(test::byte_list({0xC9, 0x41, 0x42, 0xFE}), 6) == test::ascii_bytes("ABABAB"));
    CHECK(decoded(test::byte_list({0xA8, 0x00, 0xFF, 0xFF}), 10) == Bytes(10, std::byte{0}));
  }
  SECTION("size 0 reads nothing") {
    CHECK(decoded({}, 0).empty());
    CHECK(decoded(test::byte_list({0x40, 0x00, 0x00, 0x00}), 0).empty());
  }
}

TEST_CASE("PRS compressor reproduces the vectors GNTool's compressor emits", "[prs]") {
  CHECK(prs_compress(Bytes(10, std::byte{0})) == test::byte_list({0xA8, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00}));
  CHECK(prs_compress(test::ascii_bytes("ABABAB")) == test::byte_list({0xC9, 0x41, 0x42, 0xFE, 0x00, 0x00, 0x00}));
  CHECK(prs_compress({}) == test::byte_list({0x40, 0x00, 0x00, 0x00}));  // only the end: bits 0,1 and 00 00 00
}

TEST_CASE("PRS produce < size gives the prefix", "[prs]") {
  const Bytes zeros = test::byte_list({0xA8, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00});
  CHECK(decoded(zeros, 10, 0).empty());
  CHECK(decoded(zeros, 10, 1) == Bytes(1, std::byte{0}));
  CHECK(decoded(zeros, 10, 3) == Bytes(3, std::byte{0}));  // stops inside the long copy
  CHECK(decoded(zeros, 10, 50) == Bytes(10, std::byte{0}));  // produce > size: size wins
  const Bytes abab = test::byte_list({0xC9, 0x41, 0x42, 0xFE});
  CHECK(decoded(abab, 6, 5) == test::ascii_bytes("ABABA"));
  CHECK(decoded(abab, 6, 2) == test::ascii_bytes("AB"));
  // A prefix needs only the input up to it: the copy token is never read.
  CHECK(decoded(test::byte_list({0xC9, 0x41, 0x42}), 6, 2) == test::ascii_bytes("AB"));
  // A copy running past `produce` is fine, but one running past `size` is still an overrun.
  expect_error(zeros, 5, "overrun", 2, 2);

  const Bytes plain = text_bytes(50'000);
  const Bytes packed = prs_compress(plain);
  for (const std::uint64_t produce : {1u, 17u, 4096u, 49'999u}) {
    CAPTURE(produce);
    CHECK(decoded(packed, plain.size(), produce) == Bytes(plain.begin(), plain.begin() + produce));
  }
}

TEST_CASE("PRS round trips", "[prs]") {
  SECTION("one byte") { check_round_trip(test::byte_list({0x5A})); }
  SECTION("two bytes") { check_round_trip(test::byte_list({0x00, 0x00})); }
  SECTION("a long run of one byte") {
    const Bytes run(300'000, std::byte{0x00});
    check_round_trip(run);
    CHECK(prs_compress(run).size() < run.size() / 70);  // 256-byte copies: 3 bytes + 2 bits each
  }
  SECTION("runs of several lengths and a two-byte period") {
    Bytes plain;
    for (int length : {1, 2, 3, 4, 5, 6, 9, 10, 11, 255, 256, 257, 258, 1000, 8191, 8192, 8193})
      plain.insert(plain.end(), static_cast<std::size_t>(length), static_cast<std::byte>(length & 0xFF));
    for (int i = 0; i < 5000; ++i) plain.push_back(static_cast<std::byte>(i % 2 ? 0xAB : 0xCD));
    check_round_trip(plain);
  }
  SECTION("random bytes (incompressible)") {
    const Bytes plain = random_bytes(300'000, 1);
    check_round_trip(plain);
    CHECK(prs_compress(plain).size() <= plain.size() + plain.size() / 8 + 8);  // literals: 9 bits a byte
  }
  SECTION("text") {
    const Bytes plain = text_bytes(400'000);
    check_round_trip(plain);
    CHECK(prs_compress(plain).size() < plain.size() / 2);
  }
  SECTION("matches at the window's edge: distance 8191 is used, 8192 is not") {
    Bytes plain = random_bytes(8191, 2);
    const Bytes first(plain.begin(), plain.begin() + 300);
    plain.insert(plain.end(), first.begin(), first.end());  // repeats at distance 8191
    plain.push_back(std::byte{0x11});
    const Bytes second(plain.begin() + 1, plain.begin() + 301);
    plain.insert(plain.end(), second.begin(), second.end());  // repeats at distance 8192: out of reach
    check_round_trip(plain);
  }
  SECTION("short and 2-byte copies at distances 255, 256 and 257") {
    for (const std::size_t distance : {255u, 256u, 257u}) {
      Bytes plain = random_bytes(distance, static_cast<std::uint32_t>(distance));
      plain.push_back(plain[0]);
      plain.push_back(plain[1]);
      plain.push_back(std::byte{0x77});
      check_round_trip(plain);
    }
  }
  SECTION("many random mixes of runs, repeats and noise") {
    std::mt19937 rng(42);
    for (int round = 0; round < 200; ++round) {
      Bytes plain;
      const std::size_t target = rng() % 20'000;
      while (plain.size() < target) {
        const unsigned kind = rng() % 3, length = 1 + rng() % 400;
        if (kind == 0) plain.insert(plain.end(), length, static_cast<std::byte>(rng() & 0xFF));
        else if (kind == 1 || plain.empty()) for (unsigned i = 0; i < length; ++i) plain.push_back(static_cast<std::byte>(rng() & 3));
        else {
          const std::size_t from = rng() % plain.size();
          for (unsigned i = 0; i < length; ++i) plain.push_back(plain[from + i % (plain.size() - from)]);
        }
      }
      CAPTURE(round);
      REQUIRE(decoded(prs_compress(plain), plain.size()) == plain);
    }
  }
}

TEST_CASE("PRS compresses a few MB of hard data quickly", "[prs][speed]") {
  // Long runs are the compressor's worst case (every position a candidate): the chain cap keeps it linear.
  Bytes plain(4u << 20, std::byte{0});
  for (std::size_t i = 0; i < plain.size(); i += 4096) plain[i] = std::byte{1};
  const auto start = std::chrono::steady_clock::now();
  const Bytes packed = prs_compress(plain);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(decoded(packed, plain.size()) == plain);
  CHECK(seconds < 5.0);
}

TEST_CASE("corrupt PRS streams fail with the rule and its offset", "[prs][corrupt]") {
  SECTION("short copy before the output start") {
    // Control 00: bits 0,0 (short), 0,0 (n = 2); byte FF: d = 1 with nothing produced yet.
    expect_error(test::byte_list({0x00, 0xFF}), 4, "copy before the output start", 1);
  }
  SECTION("long copy before the output start") {
    // Control A0: a literal, then 0,1 (long); word F7 FF: d = 8192 - 0x1EFF = 257 > 1.
    expect_error(test::byte_list({0xA0, 0x41, 0xF7, 0xFF}), 20, "copy before the output start", 2);
  }
  SECTION("short copy overrun past the size") {
    // Two literals, then a short copy of 5 at d = 2 into a 6-byte output.
    expect_error(test::byte_list({0xCC, 0x41, 0x42, 0xFE}), 6, "overrun", 3);
  }
  SECTION("long copy overrun past the size") {
    expect_error(test::byte_list({0xA8, 0x00, 0xFF, 0xFF}), 3, "overrun past the 3-byte output", 2);
  }
  SECTION("long copy with a length byte overrun") {
    // A literal, then 0,1 with word FF F8 (d = 1, length in the next byte), length byte FF: n = 256.
    expect_error(test::byte_list({0xA0, 0x00, 0xFF, 0xF8, 0xFF}), 100, "overrun", 2);
  }
  SECTION("missing input: an empty stream") { expect_error({}, 1, "missing input", 0); }
  SECTION("missing input: a literal byte") { expect_error(test::byte_list({0x80}), 1, "missing input", 1); }
  SECTION("missing input: a control byte") {
    expect_error(test::byte_list({0xFF, 1, 2, 3, 4, 5, 6, 7, 8}), 9, "control byte (missing input", 9);
  }
  SECTION("missing input: a short-copy distance") { expect_error(test::byte_list({0x80, 0x41}), 4, "short-copy distance", 2); }
  SECTION("missing input: half a long-copy word") { expect_error(test::byte_list({0xA0, 0x41, 0xFF}), 4, "long-copy word", 3); }
  SECTION("missing input: a long-copy length byte") {
    expect_error(test::byte_list({0xA0, 0x41, 0xFF, 0xF8}), 40, "long-copy length byte", 4);
  }
  SECTION("premature end marker") {
    // A literal, then 0,1 and the word 00 00 with 4 more bytes due.
    expect_error(test::byte_list({0xA0, 0x41, 0x00, 0x00, 0x00}), 5, "premature end", 2);
    const auto error = prs_decompress(test::byte_list({0xA0, 0x41, 0x00, 0x00, 0x00}), 5).error();
    CHECK_THAT(error.expected, Catch::Contains("after 1 of 5 bytes"));
  }
}

TEST_CASE("GNTool's decoder (ported) reads prs_compress output", "[prs]") {
  for (const Bytes& plain : {Bytes{}, test::byte_list({0x01}), Bytes(70'000, std::byte{0x33}), random_bytes(20'000, 8),
                             text_bytes(100'000)}) {
    CAPTURE(plain.size());
    CHECK(gntool_uncompress(prs_compress(plain), plain.size()) == plain);
  }
  CHECK(gntool_uncompress(test::byte_list({0xA8, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00}), 10) == Bytes(10, std::byte{0}));
  CHECK(gntool_uncompress(test::byte_list({0xC9, 0x41, 0x42, 0xFE, 0x00, 0x00, 0x00}), 6) == test::ascii_bytes("ABABAB"));
}
