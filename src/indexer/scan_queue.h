#pragma once
// What the index pipeline's serial first stage hands out: every walked file, and every member of a
// container found among them, depth first (a container's row before its members, so the writer
// knows the parent). A container is listed when reached, and its members become items one at a
// time from its member list (a frame on a stack), so only the containers being walked stay open
// and a million-member table costs its member list, not a million items (containers.md; design.md
// "open containers").
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "containers/container.h"
#include "containers/container_budget.h"
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
  std::vector<std::string> warnings;                  // for scan_warnings, under this item's path
  Compression compression = nullptr;        // a member's compression as found when opened
  std::uint64_t size = 0;                             // a member's content size as found when opened
  std::optional<ParseError> open_error;               // a member that could not even be opened

  // The data file of a container listed earlier (KH2.IMG of KH2.IDX): recorded, not parsed.
  const ContainerModule* companion_of = nullptr;

  // Same size and time as in the label's last dump: a file's rows are kept without reading it; an
  // unchanged container (keep_members) also keeps all its members' rows.
  bool unchanged = false;
  bool keep_members = false;
  // A member its container stores compressed, in an image that changed: the hash of its stored
  // bytes when taken here, and whether they are the bytes the last dump parsed (then it is kept
  // without being decompressed).
  std::optional<std::string> stored_hash;
  bool unchanged_stored = false;
  // A member in a backward stream (KH2's), which is decoded whole even to see its head: kept whole
  // by the queue (up to --max-file-size), so the parse does not decode it a second time.
  std::shared_ptr<const ByteSource> decoded;
};

// What the label's last dump says of a walked file, for ScanQueue.
enum class PreviousState { none, unchanged_file, unchanged_container, changed };

// What the label's last dump says of a compressed member that was read (an animation file, or a
// file of no known format), by its path: enough to tell from its stored bytes alone that it has not
// changed.
struct PreviousMember {
  std::string stored_hash;
  std::uint64_t size = 0;  // after decompression
  std::uint64_t stored_size = 0;
};
using PreviousMemberLookup = std::function<std::optional<PreviousMember>(const std::string& path)>;

class ScanQueue {
 public:
  // `max_file_size` (index's --max-file-size; 0 turns both off): a backward-compressed member up to
  // it is kept decoded for its parse, and a compressed member up to it may be kept by its stored
  // bytes' hash (previous_member).
  ScanQueue(const std::vector<WalkEntry>& entries, ContainerLimits limits,
            std::function<PreviousState(const WalkEntry&)> previous, PreviousMemberLookup previous_member = {},
            std::uint64_t max_file_size = 0);
  // The next item, or nothing when all are out. Never throws for bad input or a failing read.
  std::optional<ScanItem> next();
  // Compressed members found unchanged by their stored bytes' hash, so never decompressed.
  std::uint64_t kept_undecompressed() const { return kept_undecompressed_; }
  // The decompressed bytes of the containers whose members were all handed out since the last
  // call: the container budget lets them go, but those members may still hold them until parsed
  // (the pipeline charges them to the next file it hands out until it is written, after them).
  std::uint64_t take_finished_container_bytes() { return std::exchange(finished_container_bytes_, 0); }

 private:
  // A container being walked: its members, the next one to hand out, and where their bytes are.
  struct Frame {
    std::string path;
    int depth = 0;
    const ContainerModule* module = nullptr;
    std::shared_ptr<const ByteSource> data;
    std::shared_ptr<DecompressionTally> tally;  // the walked file's (budget_)
    std::vector<Member> members;
    std::size_t next = 0;
    std::uint64_t held_bytes = 0;  // decompressed container bytes this frame keeps alive
    // Member indices by folded stem (member_stems): companions, and order_members' exception.
    std::unordered_multimap<std::string, std::size_t> by_folded_stem;
    // The order its members are handed out in (order_members): empty is the listing's order. Else
    // the members that must be opened come first, then, from first_comparable on, those a re-index
    // may keep by the hash of their stored bytes, with those hashes (stored_hashes[position -
    // first_comparable]), taken together when the first of them is reached (hash_stored_bytes).
    std::vector<std::uint32_t> order;
    std::size_t first_comparable = 0;
    std::vector<std::optional<HexDigest>> stored_hashes;
    bool hashed = false;
  };

  ScanItem walked_item(std::size_t index);
  ScanItem member_item(Frame& frame, std::size_t position);  // the member handed out `position`th
  void open_and_detect(ScanItem& item);
  std::optional<PreviousMember> comparable_previous(const std::string& path, const Member& member,
                                                    const ByteSource& data) const;
  static const std::unordered_multimap<std::string, std::size_t>& member_stems(Frame& frame);  // made on demand
  void order_members(Frame& frame) const;
  void hash_stored_bytes(Frame& frame) const;
  bool stored_bytes_unchanged(ScanItem& item);
  ScanItem whole_file_lz(ScanItem item, const std::shared_ptr<const ByteSource>& file, std::string_view name);
  // Lists `item` as a container, pushing a frame of its members.
  void expand(ScanItem& item, const std::shared_ptr<const ByteSource>& bytes, std::string_view name, bool decompressed);
  std::shared_ptr<const ByteSource> companion_for(const ScanItem& item, const ContainerModule& container);
  bool mark_companion(ScanItem& item) const;  // true when the item is a known companion

  const std::vector<WalkEntry>& entries_;
  ContainerLimits limits_;
  std::function<PreviousState(const WalkEntry&)> previous_;
  PreviousMemberLookup previous_member_;
  std::uint64_t max_file_size_ = 0;
  std::uint64_t kept_undecompressed_ = 0;
  std::uint64_t finished_container_bytes_ = 0;
  std::size_t next_entry_ = 0;
  std::vector<Frame> frames_;
  // Per walked file, across all its nested containers: members listed, bytes decompressed (its
  // members' tally, shared with the items decoded after the walk moved on) and containers held.
  std::unique_ptr<ContainerBudget> budget_;
  // Companions found so far, by path (a table sorts before its data: KH2.IDX < KH2.IMG).
  std::unordered_map<std::string, const ContainerModule*> companions_;
};

}  // namespace animdex
