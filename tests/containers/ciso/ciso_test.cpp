// CISO (containers.md section 2): the view equals the plain disc byte for byte (absent blocks
// as zeros), the listing is the disc's, reads cross blocks, and offsets past 4 GiB work.
#include <catch2/catch.hpp>

#include <memory>

#include "containers/ciso/ciso_container.h"
#include "containers/ciso/ciso_writer.h"
#include "containers/gcm/gcm_test_support.h"

using namespace animdex;
using namespace animdex::ciso;
using test::Bytes;

namespace {

// A disc with a run of zero blocks in the middle (a zero-filled file) and data on both sides.
Bytes disc_with_zero_blocks() {
  return gcm::build_gcm({{"a/first.bin", test::pattern_bytes(50'000, 1)},
                         {"b/zeros.bin", Bytes(200'000)},
                         {"c/last.bin", test::pattern_bytes(70'000, 2)}});
}

std::shared_ptr<const ByteSource> view_of(const Bytes& ciso_bytes) {
  auto view = open_ciso(std::make_shared<const MemorySource>(Bytes(ciso_bytes)));
  INFO((view.ok() ? std::string() : view.error().message()));
  REQUIRE(view.ok());
  return view.value();
}

}  // namespace

TEST_CASE("the CISO view is the plain disc byte for byte", "[ciso]") {
  const Bytes disc = disc_with_zero_blocks();
  const Bytes ciso_bytes = build_ciso(disc);
  REQUIRE(detect_ciso(ciso_bytes, ciso_bytes.size()));
  const auto view = view_of(ciso_bytes);
  const auto& source = dynamic_cast<const CisoSource&>(*view);
  CHECK(source.block_size() == 0x8000);
  CHECK(view->size() == kMapSize * 0x8000);
  const std::uint64_t blocks = (disc.size() + 0x7FFF) / 0x8000;
  CHECK(source.present_blocks() < blocks);  // the zero file's inner blocks are absent
  CHECK(ciso_bytes.size() == kHeaderSize + source.present_blocks() * 0x8000);
  CHECK(view->read_vector(0, disc.size()) == disc);
  // Past the disc, the rest of the map's span reads as zeros.
  const Bytes tail = view->read_vector(blocks * 0x8000 - 16, 0x10000);
  CHECK(std::all_of(tail.begin() + 16, tail.end(), [](std::byte b) { return b == std::byte{0}; }));
  CHECK(view->read_vector(view->size() - 3, 3) == Bytes(3));
  // Ranges that start and end inside blocks, across present, absent and present blocks.
  for (std::uint64_t offset : {0ULL, 1ULL, 0x7FFFULL, 0x8001ULL, 40'000ULL, 100'000ULL, 250'000ULL}) {
    for (std::uint64_t length : {1ULL, 2ULL, 0x8000ULL, 0x12345ULL}) {
      if (offset + length > disc.size()) continue;
      INFO(offset << " + " << length);
      CHECK(view->read_vector(offset, length) == Bytes(disc.begin() + offset, disc.begin() + offset + length));
    }
  }
}

TEST_CASE("the CISO listing is the disc's listing, with bytes through the view", "[ciso]") {
  const Bytes disc = disc_with_zero_blocks();
  for (std::uint32_t block_size : {0x8000u, 0x10000u, 0x200000u}) {
    INFO(block_size);
    const auto view = view_of(build_ciso(disc, block_size));
    const auto module = container_module();
    const auto listed = module.list(ContainerInput{*view, *view, "game.ciso"}, ContainerLimits{});
    REQUIRE(listed.ok());
    const auto plain = test::list_disc(disc);
    REQUIRE(plain.ok());
    REQUIRE(listed.value().members.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
      const Member& member = listed.value().members[i];
      CHECK(member.path == plain.value().members[i].path);
      CHECK(member.offset == plain.value().members[i].offset);
      CHECK(test::member_bytes(*view, member) == Bytes(disc.begin() + member.offset, disc.begin() + member.offset + member.size));
    }
  }
}

TEST_CASE("the module: detect, view, list", "[ciso]") {
  const auto module = container_module();
  CHECK(module.id == "ciso");
  CHECK(module.detect == detect_ciso);
  CHECK(module.view == open_ciso);
  CHECK(module.list == list_ciso);
  const Bytes disc = test::fixture_disc();
  CHECK_FALSE(detect_ciso(disc, disc.size()));
  CHECK_FALSE(detect_ciso({}, 0));
  const Bytes ciso_bytes = build_ciso(disc);
  CHECK(detect_ciso(std::span(ciso_bytes).first(4), ciso_bytes.size()));
}

TEST_CASE("the writer stores non-zero blocks whole and refuses bad block sizes", "[ciso]") {
  const Bytes disc = test::pattern_bytes(0x8000 + 10, 3);  // one full block and 10 bytes
  const Bytes ciso_bytes = build_ciso(disc);
  CHECK(ciso_bytes.size() == kHeaderSize + 2 * 0x8000);
  CHECK(test::get(ciso_bytes, kBlockSizeOffset, 4, LE) == 0x8000);
  CHECK(ciso_bytes[kMapOffset] == std::byte{1});
  CHECK(ciso_bytes[kMapOffset + 1] == std::byte{1});
  CHECK(ciso_bytes[kMapOffset + 2] == std::byte{0});
  CHECK(build_ciso(Bytes(0x10000)).size() == kHeaderSize);  // all zeros: nothing stored
  CHECK_THROWS_AS(build_ciso(disc, 0x4000), std::invalid_argument);
  CHECK_THROWS_AS(build_ciso(disc, (16u << 20) + 1), std::invalid_argument);
}

namespace {

// A CISO with 16 MiB blocks whose disc blocks 300 and 301 (past 4 GiB) are present, generated on
// the fly: byte k of stored block s is (s * 7 + k * 13 + (k >> 16)) & 0xFF.
class FarBlocksCiso final : public ByteSource {
 public:
  static constexpr std::uint32_t kBlock = 16u << 20;
  std::uint64_t size() const override { return kHeaderSize + 2ULL * kBlock; }
  void read(std::uint64_t offset, std::span<std::byte> out) const override {
    if (!contains(offset, out.size())) fail_at(offset, "inside");
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = byte_at(offset + i);
  }
  static std::byte stored(std::uint64_t block, std::uint64_t k) {
    return static_cast<std::byte>((block * 7 + k * 13 + (k >> 16)) & 0xFF);
  }

 private:
  static std::byte byte_at(std::uint64_t at) {
    if (at >= kHeaderSize) return stored((at - kHeaderSize) / kBlock, (at - kHeaderSize) % kBlock);
    if (at < 4) return static_cast<std::byte>("CISO"[at]);
    if (at < 8) return static_cast<std::byte>((kBlock >> (8 * (at - 4))) & 0xFF);
    return (at == kMapOffset + 300 || at == kMapOffset + 301) ? std::byte{1} : std::byte{0};
  }
};

}  // namespace

TEST_CASE("logical offsets past 4 GiB map to the right stored bytes", "[ciso]") {
  auto view_result = open_ciso(std::make_shared<const FarBlocksCiso>());
  REQUIRE(view_result.ok());
  const auto& view = *view_result.value();
  constexpr std::uint64_t kBlock = FarBlocksCiso::kBlock;
  CHECK(view.size() == kMapSize * kBlock);  // about 512 GiB of logical disc
  const std::uint64_t start = 300 * kBlock;  // 4.7 GiB
  REQUIRE(start > (4ULL << 30));
  // 32 bytes across the boundary of disc blocks 300 and 301 (stored blocks 0 and 1).
  const Bytes across = view.read_vector(start + kBlock - 16, 32);
  for (std::uint64_t i = 0; i < 32; ++i) {
    const std::uint64_t logical = start + kBlock - 16 + i;
    const std::uint64_t stored_block = logical / kBlock - 300;
    CHECK(across[i] == FarBlocksCiso::stored(stored_block, logical % kBlock));
  }
  // Absent neighbours read as zeros, and the last byte of the span is readable.
  CHECK(view.read_vector(start - 4, 4) == Bytes(4));
  CHECK(view.read_vector(start + 2 * kBlock, 4) == Bytes(4));
  CHECK(view.read_vector(view.size() - 1, 1) == Bytes(1));
  // Past the span: an error at the logical offset, no wrap.
  std::byte one[1];
  CHECK_THROWS_AS(view.read(view.size(), one), ParseFailure);
  CHECK_THROWS_AS(view.read(UINT64_MAX, one), ParseFailure);
}

TEST_CASE("listing a CISO reads only its header and the blocks of boot.bin and the FST", "[ciso]") {
  const Bytes ciso_bytes = build_ciso(disc_with_zero_blocks());
  const MemorySource memory{std::span<const std::byte>(ciso_bytes)};
  auto counting = std::make_shared<const test::CountingSource>(memory);
  const auto view = open_ciso(counting);
  REQUIRE(view.ok());
  CHECK(counting->bytes_read == kHeaderSize);
  REQUIRE(list_ciso(ContainerInput{*view.value(), *view.value(), "x"}, ContainerLimits{}).ok());
  // boot.bin (0x440) and the FST (at 0x2440, a few dozen bytes) both lie in the first block.
  CHECK(counting->bytes_read <= kHeaderSize + 0x440 + 0x1000);
}
