// ScanQueue (indexer/scan_queue.h): the order a changed container's members come out in, and the
// stored-bytes hashes that let a re-index keep members without decompressing them.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "containers/fpk/fpk_writer.h"
#include "core/content_hash.h"
#include "indexer/scan_queue.h"
#include "indexer/walker.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

constexpr std::uint64_t kMaxFileSize = 16 << 20;

std::vector<ScanItem> all_items(ScanQueue& queue) {
  std::vector<ScanItem> items;
  while (auto item = queue.next()) items.push_back(std::move(*item));
  return items;
}

std::vector<std::string> paths(const std::vector<ScanItem>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) out.push_back(item.path);
  return out;
}

// An archive of six PRS-compressed members, each its own bytes, and one stored as is that shares
// m001's stem (as a table's companion data would).
struct Archive {
  test::TempDir dir;
  std::vector<std::byte> bytes;
  std::vector<WalkEntry> entries;

  explicit Archive(bool with_companion_stem = true) {
    std::vector<fpk::FpkInput> inputs;
    for (int i = 0; i < 6; ++i) {
      std::vector<std::byte> content(300 + 40 * i);
      for (std::size_t b = 0; b < content.size(); ++b) content[b] = static_cast<std::byte>((b * (i + 3)) / 7);
      inputs.push_back({"m00" + std::to_string(i) + ".mot", content, true});
      if (i == 1 && with_companion_stem) inputs.push_back({"m001.bin", std::vector<std::byte>(64, std::byte{0x5A}), false});
    }
    bytes = fpk::write_fpk(inputs);
    test::write_bytes(dir / "disc/x.fpk", bytes);
    entries = walk_roots({dir / "disc"}).entries;
  }

  std::string hash_of(const Member& member) const {
    return hash_bytes(std::span(bytes).subspan(member.offset, member.stored_size));
  }

  // What the last dump recorded of each member, as a first scan (nothing to compare) lists it.
  std::map<std::string, PreviousMember> last_dump() const {
    std::map<std::string, PreviousMember> last;
    ScanQueue first(entries, ContainerLimits{}, changed, {}, kMaxFileSize);
    for (const auto& item : all_items(first)) {
      if (!item.member) continue;
      CHECK_FALSE(item.stored_hash);  // nothing to compare with: no hash taken
      last[item.path] = {hash_of(*item.member), item.member->size, item.member->stored_size};
    }
    return last;
  }

  std::vector<ScanItem> scan_again(const std::map<std::string, PreviousMember>& last, std::uint64_t& kept) const {
    ScanQueue again(entries, ContainerLimits{}, changed,
                    [&](const std::string& path) -> std::optional<PreviousMember> {
                      const auto found = last.find(path);
                      if (found == last.end()) return std::nullopt;
                      return found->second;
                    },
                    kMaxFileSize);
    auto items = all_items(again);
    kept = again.kept_undecompressed();
    return items;
  }

  static PreviousState changed(const WalkEntry&) { return PreviousState::changed; }
};

}  // namespace

TEST_CASE("a changed archive's members whose sizes changed come out first, those kept by their stored bytes after",
          "[indexer][incremental]") {
  Archive archive;
  REQUIRE(archive.entries.size() == 1);
  auto last = archive.last_dump();
  REQUIRE(last.size() == 7);
  last["x.fpk/m002.mot"].stored_size += 1;                  // a new stored size: it changed, opened first
  last["x.fpk/m004.mot"].stored_hash = "0000000000000000";  // same sizes, other bytes: opened in its turn
  std::uint64_t kept = 0;
  const auto items = archive.scan_again(last, kept);
  // m001.mot shares its stem with a member stored as is, which could be its companion: it keeps its
  // place before it.
  CHECK(paths(items) == std::vector<std::string>{"x.fpk", "x.fpk/m001.mot", "x.fpk/m001.bin", "x.fpk/m002.mot",
                                                 "x.fpk/m000.mot", "x.fpk/m003.mot", "x.fpk/m004.mot",
                                                 "x.fpk/m005.mot"});
  for (const auto& item : items) {
    if (!item.member) continue;
    INFO(item.path);
    const bool compared = item.path != "x.fpk/m002.mot" && item.path != "x.fpk/m001.bin";
    CHECK(item.stored_hash.has_value() == compared);
    if (compared) CHECK(*item.stored_hash == archive.hash_of(*item.member));
    CHECK(item.unchanged_stored == (compared && item.path != "x.fpk/m004.mot"));
  }
  CHECK(kept == 4);
}

TEST_CASE("a changed archive whose members all kept their sizes comes out in its listing's order", "[indexer][incremental]") {
  Archive archive(/*with_companion_stem=*/false);
  auto last = archive.last_dump();
  REQUIRE(last.size() == 6);
  last["x.fpk/m003.mot"].stored_hash = "0000000000000000";
  std::uint64_t kept = 0;
  const auto items = archive.scan_again(last, kept);
  CHECK(paths(items) == std::vector<std::string>{"x.fpk", "x.fpk/m000.mot", "x.fpk/m001.mot", "x.fpk/m002.mot",
                                                 "x.fpk/m003.mot", "x.fpk/m004.mot", "x.fpk/m005.mot"});
  for (const auto& item : items) {
    if (!item.member) continue;
    INFO(item.path);
    REQUIRE(item.stored_hash);
    CHECK(*item.stored_hash == archive.hash_of(*item.member));
    CHECK(item.unchanged_stored == (item.path != "x.fpk/m003.mot"));
  }
  CHECK(kept == 5);
}

TEST_CASE("an archive that shrinks while a re-index scans it loses only the members past the cut", "[indexer][reliability]") {
  Archive archive(/*with_companion_stem=*/false);
  auto last = archive.last_dump();
  last["x.fpk/m002.mot"].stored_size += 1;  // opened first
  ScanQueue again(archive.entries, ContainerLimits{}, Archive::changed,
                  [&](const std::string& path) -> std::optional<PreviousMember> {
                    const auto found = last.find(path);
                    if (found == last.end()) return std::nullopt;
                    return found->second;
                  },
                  kMaxFileSize);
  const auto container = again.next();  // listed: the members' places are known, none read yet
  REQUIRE(container);
  REQUIRE(container->container);
  const std::uint64_t cut = archive.bytes.size() / 2;
  std::filesystem::resize_file(archive.dir / "disc/x.fpk", cut);
  const auto members = all_items(again);
  REQUIRE(members.size() == 6);
  int lost = 0, kept = 0;
  for (const auto& item : members) {
    INFO(item.path);
    REQUIRE(item.member);
    if (item.member->offset + item.member->stored_size > cut) {
      ++lost;
      REQUIRE(item.open_error);  // its hash and its read both failed: the read says where
      CHECK(item.open_error->found.find("shrank") != std::string::npos);
      CHECK_FALSE(item.unchanged_stored);
    } else if (item.path != "x.fpk/m002.mot") {
      ++kept;
      CHECK(item.unchanged_stored);
    }
  }
  CHECK(lost >= 2);
  CHECK(kept >= 1);
  CHECK(again.kept_undecompressed() == static_cast<std::uint64_t>(kept));
}
