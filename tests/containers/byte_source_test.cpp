#include <catch2/catch.hpp>

#include <vector>

#include "containers/byte_source.h"
#include "core/content_hash.h"
#include "core/parse_error.h"

using namespace animdex;

namespace {

std::vector<std::byte> counting_bytes(std::size_t count) {
  std::vector<std::byte> bytes(count);
  for (std::size_t i = 0; i < count; ++i) bytes[i] = static_cast<std::byte>((i * 131 + i / 251) & 0xFF);
  return bytes;
}

}  // namespace

TEST_CASE("hash_range gives hash_bytes' digits for a range, read a piece at a time", "[containers]") {
  const auto bytes = counting_bytes((1 << 20) + 777);
  const MemorySource source{std::span<const std::byte>(bytes)};
  const std::size_t piece = 256 << 10;  // hash_range's piece: ranges below, at and across it
  for (const std::size_t length : {std::size_t{0}, std::size_t{1}, std::size_t{4096}, std::size_t{4097}, piece - 1,
                                   piece, piece + 1, 3 * piece + 5, bytes.size() - 13}) {
    INFO(length);
    const std::span<const std::byte> range(bytes.data() + 13, length);
    CHECK(hash_range(source, 13, length).text() == hash_bytes(range));
  }
  CHECK_THROWS_AS(hash_range(source, bytes.size() - 10, 11), ParseFailure);
}
