// KH2.IDX + KH2.IMG (containers.md section 4): writer round trips, names and unknown hashes, a
// world table member listed as an IDX over the same IMG, the B_LK120_RAW bit-12 rule, offsets
// past 4 GiB, and that listing reads nothing of the IMG.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "containers/container_test_support.h"
#include "containers/iso9660/sparse_source.h"
#include "containers/kh2_idx/kh2_compression.h"
#include "containers/kh2_idx/kh2_hash.h"
#include "containers/kh2_idx/kh2_idx_container.h"
#include "containers/kh2_idx/kh2_idx_writer.h"

using namespace animdex;
using namespace animdex::kh2_idx;
using Bytes = std::vector<std::byte>;
using animdex::test::SparseSource;

namespace {

Bytes pattern(std::size_t count, unsigned seed, unsigned alphabet) {
  std::mt19937 rng(seed);
  Bytes out(count);
  for (auto& b : out) b = static_cast<std::byte>(rng() % alphabet);
  return out;
}

std::vector<Kh2Entry> sample_entries() {
  return {
      {"obj/P_EX100.mset", pattern(3000, 1, 256), false, false},
      {"obj/B_LK120_RAW.mset", pattern(10000, 2, 3), true, false},
      {"zz/not_a_kh2_name.bin", pattern(10, 3, 256), false, false},
      {"vagstream/End_Piano.vas", pattern(5000, 4, 256), false, true},
      {"empty/raw.bin", {}, false, false},
      {"empty/compressed.bin", {}, true, false},
  };
}

Result<MemberList> list(const Bytes& idx, const ByteSource& img, const ContainerLimits& limits = {}) {
  const MemorySource table(idx);
  return list_kh2_idx({table, img, "KH2.IDX"}, limits);
}

// A member's content: its stored range of the IMG, decompressed when it is.
Bytes content(const Member& member, const Bytes& img) {
  const Bytes stored(img.begin() + static_cast<std::ptrdiff_t>(member.offset),
                     img.begin() + static_cast<std::ptrdiff_t>(member.offset + member.stored_size));
  if (member.compression == nullptr) return stored;
  auto decoded = kh2_decompress(stored, member.size);
  REQUIRE(decoded.ok());
  return decoded.value();
}

}  // namespace

TEST_CASE("KH2 IDX/IMG: writer round trip", "[kh2_idx]") {
  const auto entries = sample_entries();
  const Kh2Image image = build_kh2_idx_img(entries);
  REQUIRE(image.idx.size() == 4 + 16 * entries.size());
  REQUIRE(image.img.size() % kBlockSize == 0);
  CHECK(detect_kh2_idx(image.idx, image.idx.size()));
  const MemorySource img(image.img);
  auto listed = list(image.idx, img);
  REQUIRE(listed.ok());
  CHECK(listed.value().warnings.empty());
  REQUIRE(listed.value().members.size() == entries.size());
  std::map<std::string, const Kh2Entry*> by_path;
  for (const auto& entry : entries) {
    const bool known = entry.name.rfind("zz/", 0) != 0 && entry.name.rfind("empty/", 0) != 0;
    by_path[known ? entry.name : kh2_hash_name(kh2_hash32(entry.name), kh2_hash16(entry.name))] = &entry;
  }
  std::uint32_t previous_hash = 0;
  for (const auto& member : listed.value().members) {
    INFO(member.path);
    REQUIRE(by_path.count(member.path) == 1);
    const Kh2Entry& entry = *by_path[member.path];
    CHECK(member.stored_name == kh2_hash_name(kh2_hash32(entry.name), kh2_hash16(entry.name)));
    CHECK(kh2_hash32(entry.name) >= previous_hash);  // listed in IDX order, sorted by Hash32
    previous_hash = kh2_hash32(entry.name);
    CHECK(member.offset % kBlockSize == 0);
    CHECK(member.size == entry.bytes.size());
    CHECK(member.compression == (entry.compress ? &kh2_idx::kKh2Codec : nullptr));
    if (entry.compress) CHECK(member.stored_size % kBlockSize == 0);
    else CHECK(member.stored_size == entry.bytes.size());
    CHECK(content(member, image.img) == entry.bytes);
  }
}

TEST_CASE("KH2 IDX: names from the table, unknown hashes as @HHHHHHHH-HHHH", "[kh2_idx]") {
  const Kh2Image image = build_kh2_idx_img({{"obj/P_EX100.mset", pattern(16, 5, 256)}, {"my/own.bin", pattern(16, 6, 256)}});
  const MemorySource img(image.img);
  auto listed = list(image.idx, img);
  REQUIRE(listed.ok());
  std::vector<std::string> paths;
  for (const auto& member : listed.value().members) paths.push_back(member.path);
  const std::string unknown = kh2_hash_name(kh2_hash32("my/own.bin"), kh2_hash16("my/own.bin"));
  CHECK_THAT(paths, Catch::UnorderedEquals(std::vector<std::string>{"obj/P_EX100.mset", unknown}));
  CHECK(unknown.size() == 14);
  CHECK(unknown[0] == '@');
  CHECK(unknown[9] == '-');
}

TEST_CASE("KH2 IDX: a world table is a member that lists against the same IMG", "[kh2_idx]") {
  // The IMG holds two files; 000al.idx, stored in it too, lists one of them under a world name.
  const std::vector<Kh2Entry> files = {{"obj/P_EX100.mset", pattern(2500, 7, 256)},
                                       {"obj/B_LK120_RAW.mset", pattern(9000, 8, 5), true}};
  const Kh2Image first = build_kh2_idx_img(files);
  Kh2IdxEntry world_entry;
  for (std::uint64_t index = 0; index < files.size(); ++index)
    if (read_entry(first.idx, index).hash32 == kh2_hash32("obj/P_EX100.mset")) world_entry = read_entry(first.idx, index);
  REQUIRE(world_entry.size == files.front().bytes.size());
  world_entry.hash32 = kh2_hash32("anm/fm/al/h_al010/EAL00001E.anb");
  world_entry.hash16 = kh2_hash16("anm/fm/al/h_al010/EAL00001E.anb");
  const Bytes world_idx = write_kh2_idx(std::vector<Kh2IdxEntry>{world_entry});
  auto all = files;
  all.push_back({"000al.idx", world_idx, false});
  const Kh2Image image = build_kh2_idx_img(all);  // entries placed in order: the first two blocks are unchanged
  REQUIRE(std::equal(first.img.begin(), first.img.end(), image.img.begin()));

  const MemorySource img(image.img);
  auto listed = list(image.idx, img);
  REQUIRE(listed.ok());
  const Member* world = nullptr;
  for (const auto& member : listed.value().members)
    if (member.path == "000al.idx") world = &member;
  REQUIRE(world != nullptr);
  const Bytes world_bytes = content(*world, image.img);
  CHECK(detect_kh2_idx(world_bytes, world_bytes.size()));
  CHECK(container_module().required_extension == ".idx");
  auto world_listed = list(world_bytes, img);
  REQUIRE(world_listed.ok());
  REQUIRE(world_listed.value().members.size() == 1);
  const Member& animation = world_listed.value().members[0];
  CHECK(animation.path == "anm/fm/al/h_al010/EAL00001E.anb");
  CHECK(content(animation, image.img) == files.front().bytes);
}

TEST_CASE("KH2 IDX: the B_LK120_RAW rule sets bit 12 of big compressed entries", "[kh2_idx]") {
  Kh2IdxEntry entry{kh2_hash32("obj/B_LK120_RAW.mset"), kh2_hash16("obj/B_LK120_RAW.mset"), 0x4710, 0, 0x1000000};
  CHECK(block_field(entry) == 0x1710);
  CHECK(stored_size(entry) == 0x1711ULL * 2048);
  entry.size = 0xFFFFFF;  // below the threshold: the field as stored
  CHECK(block_field(entry) == 0x0710);
  entry.size = 0x1000000;
  entry.descriptor = 0x0710;  // raw: the block field does not count, the size does
  CHECK(block_field(entry) == 0x0710);
  CHECK(stored_size(entry) == 0x1000000);
  entry.descriptor = 0x5710;  // already set: unchanged
  CHECK(block_field(entry) == 0x1710);

  // Listed from a hand-made descriptor against a large (sparse) IMG.
  const Kh2IdxEntry big{0x10303F6F, 0xF325, 0x4710, 3, 0x1000000};
  const Bytes idx = write_kh2_idx(std::vector<Kh2IdxEntry>{big});
  const SparseSource img({}, 64ULL << 20);
  auto listed = list(idx, img);
  REQUIRE(listed.ok());
  REQUIRE(listed.value().members.size() == 1);
  const Member& member = listed.value().members[0];
  CHECK(member.path == "obj/B_LK120_RAW.mset");
  CHECK(member.offset == 3 * 2048);
  CHECK(member.stored_size == 0x1711ULL * 2048);
  CHECK(member.size == 0x1000000);
  CHECK(member.compression == &kh2_idx::kKh2Codec);
}

TEST_CASE("KH2 IDX: offsets past 4 GiB, and listing reads only the IDX", "[kh2_idx]") {
  const std::vector<Kh2IdxEntry> entries = {{0x10, 1, 0x0000, 0x300000, 100}, {0x20, 2, 0x4001, 0xFFFFFFFF, 50}};
  const Bytes idx = write_kh2_idx(entries);
  const SparseSource img({}, 0x200000000000ULL);  // 32 TiB, nothing behind it
  auto listed = list(idx, img);
  REQUIRE(listed.ok());
  REQUIRE(listed.value().members.size() == 2);
  CHECK(listed.value().members[0].offset == 0x300000ULL * 2048);
  CHECK(listed.value().members[0].offset > 0xFFFFFFFFULL);
  CHECK(listed.value().members[1].offset == 0xFFFFFFFFULL * 2048);
  CHECK(listed.value().members[1].stored_size == 2 * 2048);
  CHECK(img.bytes_read == 0);

  const Kh2Image image = build_kh2_idx_img(sample_entries());
  const SparseSource real_img(image.img);
  const SparseSource table(image.idx);
  REQUIRE(list_kh2_idx({table, real_img, "KH2.IDX"}, {}).ok());
  CHECK(real_img.bytes_read == 0);
  CHECK(table.bytes_read == image.idx.size());
}

TEST_CASE("KH2 IDX: detection", "[kh2_idx]") {
  const Kh2Image image = build_kh2_idx_img(sample_entries());
  CHECK(detect_kh2_idx(image.idx, image.idx.size()));
  CHECK_FALSE(detect_kh2_idx(image.idx, image.idx.size() + 1));            // size != 4 + 16 * count
  CHECK_FALSE(detect_kh2_idx(std::span(image.idx).first(3), 3));          // shorter than the count
  const Bytes empty = write_kh2_idx({});
  CHECK_FALSE(detect_kh2_idx(empty, empty.size()));                        // count 0
  Bytes swapped = image.idx;
  std::swap_ranges(swapped.begin() + 4, swapped.begin() + 20, swapped.begin() + 20);
  CHECK_FALSE(detect_kh2_idx(swapped, swapped.size()));                   // first entries not ascending
  // Only the head is looked at: a big IDX whose head is sorted is claimed from its head alone.
  std::vector<Kh2IdxEntry> many;
  for (std::uint32_t i = 0; i < 5000; ++i) many.push_back({i * 7 + 1, 0, 0, 0, 0});
  const Bytes big = write_kh2_idx(many);
  CHECK(detect_kh2_idx(std::span(big).first(kContainerDetectBytes), big.size()));
  const auto module = container_module();
  CHECK(module.id == "kh2_idx");
  CHECK(module.companion_extension == ".img");
  CHECK(module.required_extension == ".idx");
  CHECK(module.detect == &detect_kh2_idx);
  CHECK(module.list == &list_kh2_idx);
}
