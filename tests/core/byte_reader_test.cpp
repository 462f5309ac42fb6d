#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <span>
#include <vector>

#include "core/byte_reader.h"
#include "core/byte_writer.h"
#include "support/byte_list.h"

using namespace animdex;

TEST_CASE("ByteReader reads both byte orders explicitly", "[core]") {
  const auto data = test::byte_list({0x12, 0x34, 0x56, 0x78, 0x40, 0x48, 0x00, 0x00});
  const ByteReader in(data);
  CHECK(in.u16be(0) == 0x1234);
  CHECK(in.u16le(0) == 0x3412);
  CHECK(in.u32be(0) == 0x12345678U);
  CHECK(in.u32le(0) == 0x78563412U);
  CHECK(in.f32be(4) == 3.125F);
  CHECK(in.i16(0, Endian::big) == 0x1234);
  CHECK(in.u64(0, Endian::big) == 0x1234567840480000ULL);
}

TEST_CASE("ByteReader reports a read past the end with its offset", "[core]") {
  const auto data = test::byte_list({1, 2, 3, 4, 5, 6});
  const ByteReader in(data);
  try {
    (void)in.u32be(4);
    FAIL("no error");
  } catch (const ParseFailure& failure) {
    CHECK(failure.error().offset == 4);
    CHECK_THAT(failure.error().message(), Catch::Contains("0x4") && Catch::Contains("6-byte buffer"));
  }
  CHECK_THROWS_AS(in.slice(2, 5), ParseFailure);
  CHECK_NOTHROW(in.slice(2, 4));
}

TEST_CASE("ByteReader::contains does not overflow", "[core]") {
  const auto data = test::byte_list({1, 2, 3});
  const ByteReader in(data);
  CHECK(in.contains(0, 3));
  CHECK(in.contains(3, 0));
  CHECK_FALSE(in.contains(4, 0));
  CHECK_FALSE(in.contains(1, UINT64_MAX));
  CHECK_FALSE(in.contains(UINT64_MAX, 2));
}

TEST_CASE("ByteWriter writes what ByteReader reads", "[core]") {
  ByteWriter out;
  out.u16(0xBEEF, Endian::big);
  out.u32(0xDEADBEEF, Endian::little);
  out.f32(-0.5F, Endian::big);
  out.u32(0, Endian::big);
  out.patch_u32(10, 0xCAFEF00D, Endian::big);
  const auto data = out.take();
  const ByteReader in(data);
  CHECK(in.u16be(0) == 0xBEEF);
  CHECK(in.u32le(2) == 0xDEADBEEF);
  CHECK(in.f32be(6) == -0.5F);
  CHECK(in.u32be(10) == 0xCAFEF00D);
}

TEST_CASE("ByteReader::read_array gives what reads one value at a time give, at every length and offset", "[core]") {
  // Runs are swapped eight bytes a step and the rest a word at a time: lengths 0..19 cover full
  // steps, tails and both; offsets 0..3 cover unaligned runs.
  std::vector<std::byte> data(96);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>(i * 37 + 11);
  const ByteReader in(data);
  for (const auto order : {Endian::big, Endian::little})
    for (std::uint64_t offset = 0; offset < 4; ++offset)
      for (std::size_t count = 0; count < 20; ++count) {
        INFO("order " << static_cast<int>(order) << ", offset " << offset << ", count " << count);
        std::vector<std::uint16_t> halves(count);
        std::vector<std::uint32_t> words(count);
        std::vector<float> floats(count);
        in.read_array(offset, order, std::span<std::uint16_t>(halves));
        in.read_array(offset, order, std::span<std::uint32_t>(words));
        in.read_array(offset, order, std::span<float>(floats));
        for (std::size_t k = 0; k < count; ++k) {
          CHECK(halves[k] == in.u16(offset + 2 * k, order));
          CHECK(words[k] == in.u32(offset + 4 * k, order));
          CHECK(std::bit_cast<std::uint32_t>(floats[k]) == in.u32(offset + 4 * k, order));
        }
      }
}

TEST_CASE("ByteReader::read_array reads a run of values in either order, checked once", "[core]") {
  const auto data = test::byte_list({0x12, 0x34, 0x56, 0x78, 0x40, 0x48, 0x00, 0x00, 0x9A});
  const ByteReader in(data);
  std::array<std::uint16_t, 2> halves{};
  in.read_array(0, Endian::big, std::span<std::uint16_t>(halves));
  CHECK(halves == std::array<std::uint16_t, 2>{0x1234, 0x5678});
  in.read_array(1, Endian::little, std::span<std::uint16_t>(halves));  // unaligned
  CHECK(halves == std::array<std::uint16_t, 2>{0x5634, 0x4078});
  std::array<float, 1> value{};
  in.read_array(4, Endian::big, std::span<float>(value));
  CHECK(value[0] == 3.125F);
  std::array<std::uint32_t, 2> words{};
  in.read_array(0, Endian::big, std::span<std::uint32_t>(words));
  CHECK(words == std::array<std::uint32_t, 2>{0x12345678U, 0x40480000U});
  std::array<std::uint32_t, 0> none{};
  CHECK_NOTHROW(in.read_array(9, Endian::big, std::span<std::uint32_t>(none)));
  try {
    in.read_array(2, Endian::big, std::span<std::uint32_t>(words));  // 8 bytes from 2 pass the 9-byte end
    FAIL("no error");
  } catch (const ParseFailure& failure) {
    CHECK(failure.error().offset == 2);
    CHECK_THAT(failure.error().message(), Catch::Contains("an array of values of 8 bytes inside the 9-byte buffer"));
  }
}
