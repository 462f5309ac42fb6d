// Opening members within the caps (issue 35 item 5): decoding done to peek at a member's head is
// charged to its container's decompression total like a whole read, so entries sharing one huge
// stream cannot decode without limit.
#include <catch2/catch.hpp>

#include "containers/kh2_idx/kh2_compression.h"
#include "containers/lz/lz.h"
#include "containers/member_bytes.h"
#include "detect/identify.h"

using namespace animdex;

namespace {

std::vector<std::byte> plain(std::size_t size) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>((i * 7) % 251);
  return bytes;
}

}  // namespace

TEST_CASE("peeks at KH2 members are charged: the stream is decoded whole for a head", "[containers][caps]") {
  const auto content = plain(1 << 20);
  auto data = std::make_shared<MemorySource>(kh2_idx::kh2_compress(content));
  Member member;
  member.path = "shared.bin";
  member.stored_size = data->size();
  member.size = content.size();
  member.compression = &kh2_idx::kKh2Codec;
  ContainerLimits limits;
  DecompressionTally tally(3 << 20);  // three decodes of 1 MiB
  for (int peek = 0; peek < 3; ++peek) {
    const auto opened = open_member(data, member, limits, tally, known_content, 64);
    REQUIRE(opened.ok());
    CHECK(opened.value().head_only);
  }
  const auto fourth = open_member(data, member, limits, tally, known_content, 64);
  REQUIRE_FALSE(fourth.ok());
  CHECK_THAT(fourth.error().message(), Catch::Contains("at most 3145728 decompressed bytes"));
}

TEST_CASE("trying whether a raw Nitro member is LZ costs its decoded size, peek or not", "[containers][caps]") {
  const auto content = plain(100'000);
  auto lz = std::make_shared<MemorySource>(lz::lz11_compress(content));
  Member member;
  member.path = "maybe.bin";
  member.stored_size = member.size = lz->size();
  member.may_be_compressed = true;
  ContainerLimits limits;
  DecompressionTally tally(250'000);
  // The stream is decoded whole to see whether it is LZ (here: not a known Nitro file, so raw).
  REQUIRE(open_member(lz, member, limits, tally, known_content, 64).ok());
  CHECK(tally.bytes == 100'000);
  REQUIRE(open_member(lz, member, limits, tally, known_content, 64).ok());
  // The third try would pass the cap: it fails rather than decode.
  const auto third = open_member(lz, member, limits, tally, known_content, 64);
  REQUIRE_FALSE(third.ok());
  CHECK_THAT(third.error().message(), Catch::Contains("decompressed bytes in all the containers of one file"));
}
