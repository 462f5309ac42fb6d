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

}  // namespace

TEST_CASE("a changed archive's members whose sizes changed come out first, those kept by their stored bytes after",
          "[indexer][incremental]") {
  test::TempDir dir;
  test::write_clean_sample(dir / "dump", 1, false);
  const auto motion = test::read_bytes(dir / "dump/files/chr/sas/0000.mot");
  const auto other = test::read_bytes(dir / "dump/files/chr/sas/0001.mot");
  std::vector<fpk::FpkInput> entries;
  for (int i = 0; i < 6; ++i) entries.push_back({"m00" + std::to_string(i) + ".mot", i == 3 ? other : motion, true});
  const auto archive = fpk::write_fpk(entries);
  test::write_bytes(dir / "disc/x.fpk", archive);
  const auto walked = walk_roots({dir / "disc"});
  REQUIRE(walked.entries.size() == 1);
  const auto changed = [](const WalkEntry&) { return PreviousState::changed; };

  // The last dump, as a first scan (nothing to compare) lists it: each member's sizes and the hash
  // of its stored bytes.
  std::map<std::string, PreviousMember> last;
  {
    ScanQueue first(walked.entries, ContainerLimits{}, changed, {}, kMaxFileSize);
    for (const auto& item : all_items(first)) {
      if (!item.member) continue;
      CHECK_FALSE(item.stored_hash);  // nothing to compare with: no hash taken
      const auto stored = std::span(archive).subspan(item.member->offset, item.member->stored_size);
      last[item.path] = {hash_bytes(stored), item.member->size, item.member->stored_size};
    }
  }
  REQUIRE(last.size() == 6);
  last["x.fpk/m002.mot"].stored_size += 1;               // a new stored size: it changed, opened first
  last["x.fpk/m004.mot"].stored_hash = "0000000000000000";  // same sizes, other bytes: opened in its turn
  ScanQueue again(walked.entries, ContainerLimits{}, changed,
                  [&](const std::string& path) -> std::optional<PreviousMember> {
                    const auto found = last.find(path);
                    if (found == last.end()) return std::nullopt;
                    return found->second;
                  },
                  kMaxFileSize);
  const auto items = all_items(again);
  std::vector<std::string> order;
  for (const auto& item : items) order.push_back(item.path);
  CHECK(order == std::vector<std::string>{"x.fpk", "x.fpk/m002.mot", "x.fpk/m000.mot", "x.fpk/m001.mot",
                                          "x.fpk/m003.mot", "x.fpk/m004.mot", "x.fpk/m005.mot"});
  for (const auto& item : items) {
    if (!item.member) continue;
    INFO(item.path);
    const bool compared = item.path != "x.fpk/m002.mot";
    CHECK(item.stored_hash.has_value() == compared);
    if (compared) CHECK(*item.stored_hash == hash_bytes(std::span(archive).subspan(item.member->offset,
                                                                                    item.member->stored_size)));
    CHECK(item.unchanged_stored == (compared && item.path != "x.fpk/m004.mot"));
  }
  CHECK(again.kept_undecompressed() == 4);
}
