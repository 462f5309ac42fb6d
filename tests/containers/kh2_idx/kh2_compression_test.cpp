// KH2 compression (containers.md section 4): hand-made streams (literal, escaped key, one copy),
// round trips through kh2_compress, the `produce` contract, and one corrupt stream per rule.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "containers/container_test_support.h"
#include "containers/kh2_idx/kh2_compression.h"
#include "support/corrupt_input.h"
#include "support/byte_list.h"

using namespace animdex;
using namespace animdex::kh2_idx;
using Bytes = std::vector<std::byte>;

namespace {

// Tokens in file order, then the size (big-endian) and the key, then `padding` zero bytes.
Bytes stream(std::initializer_list<int> tokens, std::uint32_t size, int key, std::size_t padding = 0) {
  Bytes out = test::byte_list(tokens);
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::byte>((size >> shift) & 0xFF));
  out.push_back(static_cast<std::byte>(key));
  out.resize(out.size() + padding, std::byte{0});
  return out;
}

std::string text(const Bytes& b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

// OpenKh's Img.Decompress as the note describes its loop (lenient: stops when either side runs
// out), to check kh2_compress's streams also decode the way OpenKh's tool does.
Bytes openkh_style_decode(const Bytes& src) {
  std::ptrdiff_t in = static_cast<std::ptrdiff_t>(src.size()) - 1;
  auto next = [&] { return std::to_integer<int>(src[static_cast<std::size_t>(in--)]); };
  int key;
  while ((key = next()) == 0) {}
  std::uint32_t size = static_cast<std::uint32_t>(next());
  size |= static_cast<std::uint32_t>(next()) << 8;
  size |= static_cast<std::uint32_t>(next()) << 16;
  size |= static_cast<std::uint32_t>(next()) << 24;
  Bytes out(size);
  std::ptrdiff_t p = static_cast<std::ptrdiff_t>(size) - 1;
  while (p >= 0 && in >= 0) {
    const int data = next();
    if (data == key && in >= 0) {
      const int distance = next();
      if (distance > 0 && in >= 0) {
        const int length = next();
        for (int i = 0; i < length + 3 && p >= 0; ++i, --p) out[static_cast<std::size_t>(p)] = out[static_cast<std::size_t>(p + distance)];
      } else {
        out[static_cast<std::size_t>(p--)] = static_cast<std::byte>(data);
      }
    } else {
      out[static_cast<std::size_t>(p--)] = static_cast<std::byte>(data);
    }
  }
  return out;
}

Bytes random_bytes(std::size_t count, unsigned seed, int alphabet = 256) {
  std::mt19937 rng(seed);
  Bytes out(count);
  for (auto& b : out) b = static_cast<std::byte>(rng() % static_cast<unsigned>(alphabet));
  return out;
}

void check_round_trip(const Bytes& plain) {
  const Bytes packed = kh2_compress(plain);
  auto decoded = kh2_decompress(packed, plain.size());
  REQUIRE(decoded.ok());
  CHECK(decoded.value() == plain);
  CHECK(openkh_style_decode(packed) == plain);
  Bytes padded = packed;
  padded.resize((padded.size() + 2047) / 2048 * 2048, std::byte{0});  // as stored in the IMG
  auto from_blocks = kh2_decompress(padded, plain.size());
  REQUIRE(from_blocks.ok());
  CHECK(from_blocks.value() == plain);
}

}  // namespace

TEST_CASE("KH2 decompression: hand-made streams", "[kh2_idx][compression]") {
  SECTION("literals") {
    auto out = kh2_decompress(stream({'a', 'b', 'c'}, 3, 0x01), 3);
    REQUIRE(out.ok());
    CHECK(text(out.value()) == "abc");
  }
  SECTION("the escaped key: K then 0, read from the end") {
    auto out = kh2_decompress(stream({'x', 0x00, 'A', 'y'}, 3, 'A'), 3);
    REQUIRE(out.ok());
    CHECK(text(out.value()) == "xAy");
  }
  SECTION("one copy: K d c read backwards copies c + 3 bytes from d above") {
    // Read from the end: z y x, then K 3 0: out[2..0] = out[5..3].
    auto out = kh2_decompress(stream({0, 3, 0xFF, 'x', 'y', 'z'}, 6, 0xFF), 6);
    REQUIRE(out.ok());
    CHECK(text(out.value()) == "xyzxyz");
  }
  SECTION("an overlapping copy (distance 1)") {
    auto out = kh2_decompress(stream({2, 1, 0x07, 'a'}, 6, 0x07), 6);
    REQUIRE(out.ok());
    CHECK(text(out.value()) == "aaaaaa");
  }
  SECTION("the longest copy: 258 bytes at distance 255") {
    Bytes tokens;
    for (int i = 0; i < 255; ++i) tokens.push_back(static_cast<std::byte>('a' + i % 26));
    Bytes file = test::byte_list({255, 255, 0x01});  // c = 255 (258 bytes), d = 255, K
    file.insert(file.end(), tokens.begin(), tokens.end());
    Bytes expected(258 + 255);
    for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = tokens[(i + 252) % 255];  // out[258..] = tokens
    test::Bytes whole = file;
    for (int shift = 24; shift >= 0; shift -= 8) whole.push_back(static_cast<std::byte>((expected.size() >> shift) & 0xFF));
    whole.push_back(std::byte{0x01});
    auto out = kh2_decompress(whole, expected.size());
    REQUIRE(out.ok());
    CHECK(out.value() == expected);
  }
  SECTION("trailing zero padding is skipped") {
    auto out = kh2_decompress(stream({'a', 'b', 'c'}, 3, 0x01, 2048 - 8), 3);
    REQUIRE(out.ok());
    CHECK(text(out.value()) == "abc");
  }
  SECTION("an all-zero or empty input is the empty stream") {
    for (const Bytes& input : {Bytes{}, Bytes(2048)}) {
      auto out = kh2_decompress(input, 0);
      REQUIRE(out.ok());
      CHECK(out.value().empty());
    }
  }
  SECTION("a zero size with a key is the empty stream too") {
    auto out = kh2_decompress(stream({}, 0, 0x01), 0);
    REQUIRE(out.ok());
    CHECK(out.value().empty());
  }
}

TEST_CASE("KH2 decompression: produce < size decodes everything and returns the head", "[kh2_idx][compression]") {
  const Bytes plain = random_bytes(5000, 7, 4);  // repetitive enough for copies
  const Bytes packed = kh2_compress(plain);
  for (std::uint64_t produce : {0ULL, 1ULL, 3ULL, 255ULL, 256ULL, 257ULL, 1000ULL, 4999ULL, 5000ULL, 9000ULL}) {
    auto head = kh2_decompress(packed, plain.size(), produce);
    REQUIRE(head.ok());
    const std::size_t expected = std::min<std::size_t>(plain.size(), produce);
    REQUIRE(head.value().size() == expected);
    CHECK(std::equal(head.value().begin(), head.value().end(), plain.begin()));
  }
  // A corrupt stream fails even when the head asked for is decodable: the whole stream is read.
  Bytes broken = stream({'q', 'a', 'b'}, 2, 0x01);
  test::expect_parse_error(kh2_decompress(broken, 2, 1), "the stream to end where the output is full", 0);
}

TEST_CASE("KH2 compression: round trips", "[kh2_idx][compression]") {
  check_round_trip({});
  check_round_trip(test::byte_list({0x42}));
  check_round_trip(test::byte_list({1, 1, 1}));
  check_round_trip(Bytes(100000, std::byte{0}));
  check_round_trip(random_bytes(70000, 1));        // incompressible, every byte value: escaped keys
  check_round_trip(random_bytes(70000, 2, 3));     // long runs of copies
  check_round_trip(random_bytes(4096, 3, 255));    // key 255 never occurs: no escapes
  Bytes every_value;
  for (int round = 0; round < 3; ++round)
    for (int v = 0; v < 256; ++v) every_value.push_back(static_cast<std::byte>(v));
  check_round_trip(every_value);
  std::string prose;
  for (int i = 0; i < 400; ++i) prose += "anm/fm/al/f_al000/EAL" + std::to_string(15200 + i % 37) + "E.anb\n";
  check_round_trip(test::ascii_bytes(prose));
}

TEST_CASE("KH2 compression: the key is the least used byte of 1..255, escapes cost 2 bytes", "[kh2_idx][compression]") {
  Bytes plain;
  for (int v = 1; v < 256; ++v) plain.push_back(static_cast<std::byte>(v));
  plain.push_back(std::byte{7});  // 1..255 once each, 7 twice: the key is 1
  const Bytes packed = kh2_compress(plain);
  CHECK(packed.back() == std::byte{1});
  CHECK(packed.size() == plain.size() + 1 + 5);  // one escaped key, the size, the key
  Bytes zeros(10, std::byte{0});
  CHECK(kh2_compress(zeros).back() != std::byte{0});  // never 0, the padding byte
  CHECK(kh2_compress(Bytes(3000, std::byte{9})).size() == 1 + 12 * 3 + 5);  // a literal, 12 copies of <= 258
}

TEST_CASE("KH2 decompression: one corrupt stream per rule", "[kh2_idx][compression][corrupt]") {
  SECTION("no room for the size before the key") {
    test::expect_parse_error(kh2_decompress(test::byte_list({0, 0, 5, 0, 0}), 1), "4-byte big-endian size before the KH2 key byte", 2);
  }
  SECTION("the embedded size differs from the IDX size") {
    test::expect_parse_error(kh2_decompress(stream({'a', 'b', 'c'}, 3, 0x01), 4), "the stream's size to equal the IDX size 4", 3);
  }
  SECTION("an all-zero input for a non-empty entry") {
    test::expect_parse_error(kh2_decompress(Bytes(2048), 10), "a KH2 stream of 10 bytes", 0);
  }
  SECTION("a size no token stream of this length can reach (refused before allocating)") {
    test::expect_parse_error(kh2_decompress(stream({'a', 'b'}, 173, 0x01), 173),
                             "at least 3 bytes of tokens for 173 output bytes (86 per byte at most)", 0);
    test::expect_parse_error(kh2_decompress(stream({'a'}, 0xFFFFFFFF, 0x01), 0xFFFFFFFF), "bytes of tokens", 0);
  }
  SECTION("a copy reaching before the output start") {
    // a, then K 1 5: 8 bytes with one position left.
    test::expect_parse_error(kh2_decompress(stream({5, 1, 0x01, 'a'}, 2, 0x01), 2), "a copy of at most 1 bytes", 2);
  }
  SECTION("a copy reading past the output end") {
    test::expect_parse_error(kh2_decompress(stream({0, 1, 0x01}, 3, 0x01), 3), "a copy source inside the 3-byte output", 2);
  }
  SECTION("input missing for the output") {
    test::expect_parse_error(kh2_decompress(stream({'a', 'b'}, 5, 0x01), 5), "input for the 3 output bytes still missing", 0);
  }
  SECTION("a key byte without its distance byte") {
    test::expect_parse_error(kh2_decompress(stream({0x01}, 5, 0x01), 5), "a distance byte before the key byte", 0);
  }
  SECTION("a copy without its length byte") {
    test::expect_parse_error(kh2_decompress(stream({4, 0x01}, 5, 0x01), 5), "a length byte before the distance byte", 1);
  }
  SECTION("input left over once the output is full") {
    test::expect_parse_error(kh2_decompress(stream({'q', 'r', 'a'}, 1, 0x01), 1), "the stream to end where the output is full", 1);
  }
}
