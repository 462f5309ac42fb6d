// LZ10/LZ11 (containers.md section 3 "LZ10 / LZ11"): hand-made streams for every token form, the
// u32-size header, compressor round trips, partial decoding, one corrupt stream per rule.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <random>

#include "containers/lz/lz.h"
#include "support/corrupt_input.h"
#include "support/byte_list.h"

using namespace animdex;
using namespace animdex::lz;
using test::Bytes;

namespace {

Bytes text(std::string_view s) {
  Bytes out;
  for (char c : s) out.push_back(static_cast<std::byte>(c));
  return out;
}

Bytes decode_all(const Bytes& stored) {
  const auto header = read_lz_header(stored);
  REQUIRE(header);
  auto decoded = lz_decompress(stored, header->size);
  INFO((decoded.ok() ? std::string() : decoded.error().message()));
  REQUIRE(decoded.ok());
  return decoded.value();
}

// What a stream's back-references look like (walks the tokens like the decoder): how many of
// each byte length (LZ11's 2, 3 and 4; LZ10's all 2) and the smallest distance.
struct TokenCensus {
  std::array<int, 5> forms{};
  std::uint64_t min_distance = UINT64_MAX;
};

TokenCensus token_census(const Bytes& stored) {
  TokenCensus census;
  const auto header = read_lz_header(stored);
  const bool lz11 = header->type == lz::LzType::lz11;
  std::size_t in = header->header_length;
  std::uint64_t produced = 0;
  auto at = [&](std::size_t i) { return std::to_integer<unsigned>(stored.at(i)); };
  while (produced < header->size) {
    const unsigned flags = at(in++);
    for (int bit = 7; bit >= 0 && produced < header->size; --bit) {
      if (!((flags >> bit) & 1)) {
        ++in;
        ++produced;
        continue;
      }
      const unsigned kind = at(in) >> 4;
      std::uint64_t distance = 0;
      if (!lz11 || kind >= 2) {
        produced += lz11 ? kind + 1 : kind + 3;
        distance = (((at(in) & 0xF) << 8) | at(in + 1)) + 1;
        in += 2;
        ++census.forms[2];
      } else if (kind == 0) {
        produced += (((at(in) & 0xF) << 4) | (at(in + 1) >> 4)) + 0x11;
        distance = (((at(in + 1) & 0xF) << 8) | at(in + 2)) + 1;
        in += 3;
        ++census.forms[3];
      } else {
        produced += (((at(in) & 0xF) << 12) | (at(in + 1) << 4) | (at(in + 2) >> 4)) + 0x111;
        distance = (((at(in + 2) & 0xF) << 8) | at(in + 3)) + 1;
        in += 4;
        ++census.forms[4];
      }
      census.min_distance = std::min(census.min_distance, distance);
    }
  }
  return census;
}

Bytes random_bytes(std::size_t size, std::uint32_t seed, int alphabet = 256) {
  std::mt19937 rng(seed);
  Bytes out(size);
  for (auto& b : out) b = static_cast<std::byte>(rng() % alphabet);
  return out;
}

// Text-like input: random words from a small vocabulary, so matches of every length occur.
Bytes wordy_bytes(std::size_t size, std::uint32_t seed) {
  static const std::array<std::string_view, 8> kWords = {"BCA0 ", "joint ", "frame ", "rotation ", std::string_view("\x00\x00\x10\x00", 4),
                                                         "translate ", "scale ", "\xFF\xFF"};
  std::mt19937 rng(seed);
  Bytes out;
  while (out.size() < size) {
    const auto word = kWords[rng() % kWords.size()];
    for (char c : word) out.push_back(static_cast<std::byte>(c));
  }
  out.resize(size);
  return out;
}

void check_round_trip(const Bytes& plain) {
  for (const auto& stored : {lz10_compress(plain), lz11_compress(plain)}) {
    CHECK(stored.size() % 4 == 0);
    const auto header = read_lz_header(stored);
    REQUIRE(header);
    CHECK(header->size == plain.size());
    auto decoded = lz_decode(stored, header->size);
    REQUIRE(decoded.ok());
    CHECK(decoded.value().bytes == plain);
    CHECK(decoded.value().trailing_bytes < kLzTrailingWarnBytes);
  }
}

}  // namespace

TEST_CASE("LZ headers: type byte, u24 size, and the u32 form when the u24 is 0", "[lz]") {
  auto h = read_lz_header(test::byte_list({0x10, 0x08, 0x00, 0x00}));
  REQUIRE(h);
  CHECK(h->type == lz::LzType::lz10);
  CHECK(h->size == 8);
  CHECK(h->header_length == 4);
  h = read_lz_header(test::byte_list({0x11, 0x56, 0x34, 0x12}));
  REQUIRE(h);
  CHECK(h->type == lz::LzType::lz11);
  CHECK(h->size == 0x123456);
  h = read_lz_header(test::byte_list({0x11, 0, 0, 0, 0x78, 0x56, 0x34, 0x12}));
  REQUIRE(h);
  CHECK(h->size == 0x12345678);
  CHECK(h->header_length == 8);
  CHECK_FALSE(read_lz_header(test::byte_list({0x10, 0, 0, 0, 1, 0, 0})));  // the u32 cut short
  CHECK_FALSE(read_lz_header(test::byte_list({0x10, 1, 0})));
  CHECK_FALSE(read_lz_header(test::byte_list({0x30, 1, 0, 0})));  // RLE: not ours
  CHECK_FALSE(read_lz_header(test::byte_list({0x24, 1, 0, 0})));  // Huffman
  CHECK_FALSE(read_lz_header(Bytes{}));
}

TEST_CASE("hand-made LZ10 and LZ11 streams decode by the note's token rules", "[lz]") {
  SECTION("LZ10: three literals then n = 5, d = 3 (overlapping copy)") {
    CHECK(decode_all(test::byte_list({0x10, 8, 0, 0, 0x10, 'A', 'B', 'C', 0x20, 0x02})) == text("ABCABCAB"));
  }
  SECTION("LZ10: the longest token, n = 18, d = 1") {
    CHECK(decode_all(test::byte_list({0x10, 19, 0, 0, 0x40, 'Z', 0xF0, 0x00})) == Bytes(19, std::byte{'Z'}));
  }
  SECTION("LZ10: d = 4096 reaches the first byte of a 4096-byte window") {
    Bytes plain = random_bytes(4096, 7);
    Bytes stored = test::byte_list({0x10, 0x03, 0x10, 0x00});  // 4099 bytes
    for (std::size_t i = 0; i < 4096; i += 8) {
      stored.push_back(std::byte{0});
      stored.insert(stored.end(), plain.begin() + static_cast<std::ptrdiff_t>(i), plain.begin() + static_cast<std::ptrdiff_t>(i) + 8);
    }
    stored.insert(stored.end(), {std::byte{0x80}, std::byte{0x0F}, std::byte{0xFF}});  // n = 3, d = 4096
    plain.insert(plain.end(), plain.begin(), plain.begin() + 3);
    CHECK(decode_all(stored) == plain);
  }
  SECTION("LZ11 2-byte token: k = 4 -> n = 5") {
    CHECK(decode_all(test::byte_list({0x11, 6, 0, 0, 0x40, 'A', 0x40, 0x00})) == Bytes(6, std::byte{'A'}));
  }
  SECTION("LZ11 3-byte token: n = 20 (0x11 + 3)") {
    CHECK(decode_all(test::byte_list({0x11, 21, 0, 0, 0x40, 'A', 0x00, 0x30, 0x00})) == Bytes(21, std::byte{'A'}));
  }
  SECTION("LZ11 4-byte token: n = 300 (0x111 + 27)") {
    CHECK(decode_all(test::byte_list({0x11, 0x2D, 0x01, 0x00, 0x40, 'A', 0x10, 0x01, 0xB0, 0x00})) == Bytes(301, std::byte{'A'}));
  }
  SECTION("LZ11 4-byte token at its maximum, n = 65808") {
    const std::uint64_t size = 1 + 65808;
    auto stored = test::byte_list({0x11, static_cast<int>(size & 0xFF), static_cast<int>((size >> 8) & 0xFF),
                            static_cast<int>(size >> 16), 0x40, 'q', 0x1F, 0xFF, 0xF0, 0x00});
    CHECK(decode_all(stored) == Bytes(size, std::byte{'q'}));
  }
  SECTION("the u32-size header") {
    CHECK(decode_all(test::byte_list({0x10, 0, 0, 0, 5, 0, 0, 0, 0x00, 'H', 'E', 'L', 'L', 'O'})) == text("HELLO"));
  }
  SECTION("a size-0 stream in the u32 form decodes to nothing") {
    auto decoded = lz_decode(test::byte_list({0x11, 0, 0, 0, 0, 0, 0, 0}), 0);
    REQUIRE(decoded.ok());
    CHECK(decoded.value().bytes.empty());
    CHECK(decoded.value().trailing_bytes == 0);
  }
  SECTION("packed size may exceed the plain size (HGSS a/2/4/3 member 18: 576 -> 568)") {
    const auto stored = test::byte_list({0x10, 3, 0, 0, 0x00, 'x', 'y', 'z'});
    CHECK(stored.size() > 3);
    CHECK(decode_all(stored) == text("xyz"));
  }
}

TEST_CASE("LZ trailing input: padding under 4 bytes, more reported", "[lz]") {
  auto stored = test::byte_list({0x10, 3, 0, 0, 0x00, 'x', 'y', 'z'});
  auto decoded = lz_decode(stored, 3);
  REQUIRE(decoded.ok());
  CHECK(decoded.value().trailing_bytes == 0);
  stored.insert(stored.end(), 5, std::byte{0});
  decoded = lz_decode(stored, 3);
  REQUIRE(decoded.ok());
  CHECK(decoded.value().trailing_bytes == 5);
  CHECK(decoded.value().trailing_bytes >= kLzTrailingWarnBytes);
  // A flag byte whose unused bits follow the last token is not trailing input.
  decoded = lz_decode(test::byte_list({0x10, 1, 0, 0, 0x7F, 'x'}), 1);
  REQUIRE(decoded.ok());
  CHECK(decoded.value().trailing_bytes == 0);
}

TEST_CASE("LZ partial decoding stops once `produce` bytes exist", "[lz]") {
  const Bytes plain = wordy_bytes(5000, 3);
  for (const auto& stored : {lz10_compress(plain), lz11_compress(plain)}) {
    for (std::uint64_t produce : {0u, 1u, 4u, 17u, 100u, 4999u, 5000u, 9000u}) {
      auto head = lz_decompress(stored, plain.size(), produce);
      REQUIRE(head.ok());
      const auto expected = std::min<std::uint64_t>(produce, plain.size());
      CHECK(head.value() == Bytes(plain.begin(), plain.begin() + static_cast<std::ptrdiff_t>(expected)));
    }
  }
  // A head can end inside a back-reference: n = 5 copied only up to produce.
  auto head = lz_decompress(test::byte_list({0x10, 8, 0, 0, 0x10, 'A', 'B', 'C', 0x20, 0x02}), 8, 5);
  REQUIRE(head.ok());
  CHECK(head.value() == text("ABCAB"));
  // Corruption past the head is not seen; corruption inside it is.
  CHECK(lz_decompress(test::byte_list({0x10, 8, 0, 0, 0x00, 'A', 'B'}), 8, 2).ok());
  CHECK_FALSE(lz_decompress(test::byte_list({0x10, 8, 0, 0, 0x00, 'A', 'B'}), 8, 3).ok());
}

TEST_CASE("LZ10/LZ11 compressors round-trip", "[lz]") {
  SECTION("empty: the u32-size header") {
    for (const auto& stored : {lz10_compress({}), lz11_compress({})}) {
      CHECK(stored.size() == 8);
      CHECK(read_lz_header(stored)->header_length == 8);
    }
    check_round_trip({});
  }
  SECTION("small") {
    check_round_trip(text("a"));
    check_round_trip(text("abcabcabcabcab"));
    check_round_trip(text("BCA0"));
  }
  SECTION("random (incompressible)") { check_round_trip(random_bytes(10000, 1)); }
  SECTION("random over a small alphabet") { check_round_trip(random_bytes(20000, 2, 4)); }
  SECTION("text-like") { check_round_trip(wordy_bytes(30000, 5)); }
  SECTION("runs long enough for LZ11's 3- and 4-byte tokens") {
    Bytes plain;
    for (std::size_t run : {5u, 20u, 200u, 300u, 70000u, 3u, 272u, 273u, 65808u, 65809u}) {
      plain.insert(plain.end(), run, static_cast<std::byte>(run & 0xFF));
      plain.push_back(std::byte{0x5A});
    }
    check_round_trip(plain);
    const auto census = token_census(lz11_compress(plain));
    CHECK(census.forms[2] > 0);
    CHECK(census.forms[3] > 0);
    CHECK(census.forms[4] > 0);
  }
  SECTION("never distance 1, like the real streams (runs copy from 2 back)") {
    const Bytes run(1000, std::byte{'r'});
    for (const auto& stored : {lz10_compress(run), lz11_compress(run)}) {
      const auto census = token_census(stored);
      CHECK(census.min_distance == 2);
      CHECK(decode_all(stored) == run);
    }
    CHECK(token_census(lz10_compress(wordy_bytes(30000, 9))).min_distance >= 2);
  }
  SECTION("more than 0xFFFFFF bytes: the u32-size header") {
    Bytes plain(0x1000010);
    for (std::size_t i = 0; i < plain.size(); ++i) plain[i] = static_cast<std::byte>((i / 5000) & 0xFF);
    const auto stored = lz11_compress(plain);
    CHECK(read_lz_header(stored)->header_length == 8);
    CHECK(decode_all(stored) == plain);
  }
}

TEST_CASE("corrupt LZ streams: one per rule, with the offset", "[lz][corrupt]") {
  SECTION("not an LZ10/LZ11 header") {
    test::expect_parse_error(lz_decompress(test::byte_list({0x30, 4, 0, 0}), 4), "LZ10 (0x10) or LZ11 (0x11) header", 0);
    test::expect_parse_error(lz_decompress(Bytes{}, 0), "LZ10 (0x10) or LZ11 (0x11) header", 0);
  }
  SECTION("size argument differs from the header") {
    test::expect_parse_error(lz_decompress(test::byte_list({0x10, 3, 0, 0, 0, 'a', 'b', 'c'}), 4), "equal the header's size", 1);
  }
  SECTION("missing flag byte") {
    test::expect_parse_error(lz_decompress(test::byte_list({0x10, 5, 0, 0}), 5), "a flag byte", 4);
    test::expect_parse_error(lz_decompress(test::byte_list({0x10, 9, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}), 9), "a flag byte", 13);
  }
  SECTION("missing literal") {
    test::expect_parse_error(lz_decompress(test::byte_list({0x10, 5, 0, 0, 0x00, 'A', 'B'}), 5), "a literal byte", 7);
  }
  SECTION("cut back-references") {
    test::expect_parse_error(lz_decompress(test::byte_list({0x10, 5, 0, 0, 0x40, 'A', 0x20}), 5), "a 2-byte back-reference", 6);
    test::expect_parse_error(lz_decompress(test::byte_list({0x10, 5, 0, 0, 0x40, 'A'}), 5), "a 2-byte back-reference", 6);
    test::expect_parse_error(lz_decompress(test::byte_list({0x11, 30, 0, 0, 0x40, 'A', 0x00, 0x30}), 30), "a 3-byte back-reference", 6);
    test::expect_parse_error(lz_decompress(test::byte_list({0x11, 0x2D, 1, 0, 0x40, 'A', 0x10, 0x01, 0xB0}), 301),
                             "a 4-byte back-reference", 6);
  }
  SECTION("distance before the start of the output (d > pos)") {
    test::expect_parse_error(lz_decompress(test::byte_list({0x10, 5, 0, 0, 0x40, 'A', 0x00, 0x01}), 5),
                             "distance at most the 1 bytes output so far", 6);
    test::expect_parse_error(lz_decompress(test::byte_list({0x11, 5, 0, 0, 0x80, 0x20, 0x00}), 5), "distance at most the 0 bytes", 5);
  }
  SECTION("copy past the output size (overrun)") {
    test::expect_parse_error(lz_decompress(test::byte_list({0x10, 4, 0, 0, 0x40, 'A', 0x20, 0x00}), 4),
                             "a copy that ends within the 4-byte output", 6);
    test::expect_parse_error(lz_decompress(test::byte_list({0x11, 20, 0, 0, 0x40, 'A', 0x00, 0x30, 0x00}), 20),
                             "a copy that ends within the 20-byte output", 6);
  }
}
