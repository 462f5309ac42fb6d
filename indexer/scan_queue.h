#pragma once
// What the index pipeline's serial first stage hands out: every walked file, and every member of a
// container found among them, depth first (a container's row before its members, so the writer
// knows the parent). Containers are listed here, when reached, one at a time: only the containers
// whose members are still in flight stay open, and nested containers are listed when their turn
// comes (containers.md; design.md "open containers").
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "containers/container.h"
#include "containers/member_bytes.h"
#include "indexer/walker.h"

namespace animdex {

struct ScanItem {
  std::size_t entry_index = 0;  // the walked file this is, or is inside
  std::string path;             // files.path: the walked path, then `/` and each member path
  std::int64_t mtime_ns = 0;    // a member has its outermost file's time
  int depth = 0;                // 0: a walked file; 1: a member of one; ...

  // A member: where its bytes are, and how they are stored.
  std::optional<Member> member;
  std::string parent_path;      // the enclosing container's files.path
  std::shared_ptr<const ByteSource> parent_data;
  std::shared_ptr<DecompressionTally> tally;

  // A container: the listing's outcome (its members follow as items of their own).
  const ContainerModule* container = nullptr;
  std::shared_ptr<const ByteSource> container_bytes;  // its own stored bytes (hashed for its row)
  std::optional<ParseError> container_error;          // the listing failed: no members follow
  std::vector<std::string> warnings;                  // the listing's warnings
  std::uint64_t member_count = 0;
  Compression compression = Compression::none;        // a member's compression as found when opened
  std::uint64_t size = 0;                             // a member's content size as found when opened
  std::optional<ParseError> open_error;               // a member that could not even be opened

  // The data file of a container listed earlier (KH2.IMG of KH2.IDX): recorded, not parsed.
  const ContainerModule* companion_of = nullptr;

  // An unchanged container (same size and time as last time): not read; the writer keeps all its
  // members' rows.
  bool keep_members = false;
};

class ScanQueue {
 public:
  // `unchanged_container(entry)`: true when `entry` is a container the label's previous dump holds
  // with the same size and time (its members are kept without reading it).
  ScanQueue(const std::vector<WalkEntry>& entries, ContainerLimits limits,
            std::function<bool(const WalkEntry&)> unchanged_container);
  // The next item, or nothing when all are out. Never throws for bad input.
  std::optional<ScanItem> next();
  std::size_t walked_done() const { return next_entry_; }

 private:
  ScanItem walked_item(std::size_t index);
  bool mark_companion(ScanItem& item) const;
  ScanItem whole_file_lz(ScanItem item, const std::shared_ptr<const ByteSource>& file, std::string_view name);  // true when the item is a known companion
  // Lists `item` as a container when its bytes are one, queueing its members after it.
  void expand(ScanItem& item, const std::shared_ptr<const ByteSource>& bytes, std::string_view name);
  std::shared_ptr<const ByteSource> companion_for(const ScanItem& item, const ContainerModule& container);

  const std::vector<WalkEntry>& entries_;
  ContainerLimits limits_;
  std::function<bool(const WalkEntry&)> unchanged_container_;
  std::size_t next_entry_ = 0;
  std::deque<ScanItem> pending_;  // members still to hand out, depth first
  // Members of the containers being expanded, by parent path (companion lookup: KH2.IDX -> KH2.IMG).
  struct OpenContainer {
    std::string path;
    int depth;
    const ContainerModule* module;
    std::shared_ptr<const ByteSource> data;
    std::vector<Member> members;
  };
  std::vector<OpenContainer> open_;
  // Companions found so far, by path (a table sorts before its data: KH2.IDX < KH2.IMG).
  std::unordered_map<std::string, const ContainerModule*> companions_;
};

}  // namespace animdex
