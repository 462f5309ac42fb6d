#include "indexer/scan_queue.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <exception>
#include <fmt/format.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "core/content_hash.h"
#include "core/text.h"
#include "containers/container_registry.h"
#include "containers/listing.h"
#include "indexer/file_source.h"
#include "detect/identify.h"

namespace animdex {

namespace {

// A reader or a read that failed with something other than a ParseFailure (an I/O error turned
// into one by the source, an allocation): one item's error, never the run's.
ParseError unexpected(const std::exception& error) {
  if (const auto* failure = dynamic_cast<const ParseFailure*>(&error)) return failure->error();
  return ParseError{0, "readable bytes", error.what()};
}

std::string folded_stem(std::string_view path) {
  const auto slash = path.rfind('/');
  const auto dot = path.rfind('.');
  return lowercase_ascii(
      dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash) ? path : path.substr(0, dot));
}

}  // namespace

ScanQueue::ScanQueue(const std::vector<WalkEntry>& entries, ContainerLimits limits,
                     std::function<PreviousState(const WalkEntry&)> previous, PreviousMemberLookup previous_member,
                     std::uint64_t max_file_size)
    : entries_(entries),
      limits_(limits),
      previous_(std::move(previous)),
      previous_member_(std::move(previous_member)),
      max_file_size_(max_file_size) {}

std::optional<ScanItem> ScanQueue::next() {
  while (!frames_.empty()) {
    Frame& top = frames_.back();
    if (top.next == top.members.size()) {
      budget_->release(top.held_bytes);
      finished_container_bytes_ += top.held_bytes;
      frames_.pop_back();
      continue;
    }
    ScanItem item = member_item(top, top.next++);  // `top` may move once the item expands: not used after
    if (!mark_companion(item)) open_and_detect(item);
    return item;
  }
  if (next_entry_ == entries_.size()) return std::nullopt;
  budget_ = std::make_unique<ContainerBudget>(limits_, entries_[next_entry_].size);
  return walked_item(next_entry_++);
}

ScanItem ScanQueue::member_item(Frame& frame, std::size_t position) {
  const std::size_t index = frame.order.empty() ? position : frame.order[position];
  const Member& member = frame.members[index];
  ScanItem item;
  item.entry_index = frames_.empty() ? 0 : next_entry_ - 1;
  // Unique without a look-up: a listing's paths are unique and none is the folder of another
  // (make_member_paths_unique), so no two members of one file, nested or not, make one path.
  // (A set of every path handed out cost linear memory: ~100 MB at the 1,000,000-member cap.)
  item.path = frame.path + "/" + member.path;
  item.mtime_ns = entries_[item.entry_index].mtime_ns;
  item.depth = frame.depth + 1;
  item.member = member;
  item.parent_path = frame.path;
  item.parent_data = frame.data;
  item.tally = frame.tally;
  item.size = member.size;
  // As the table declares it until opening says otherwise: a member that fails to open (a broken
  // PRS stream) keeps its real compression in its row, not `none` (issue 35).
  item.compression = member.compression;
  if (!frame.order.empty() && position >= frame.first_comparable) {
    if (!frame.hashed) hash_stored_bytes(frame);
    if (const auto& hash = frame.stored_hashes[position - frame.first_comparable]) item.stored_hash = hash->text();
  }
  return item;
}

// The last dump's record of a compressed member of a changed image, when its stored bytes can
// show it unchanged: then it is neither decompressed (here, for its head, nor again to parse) nor
// listed. Only a member read as a file has a PreviousMember, never a container. Only a member
// within this run's limits is compared (a larger one is opened, and its row says why it was not
// parsed), so the read is bounded by --max-file-size.
std::optional<PreviousMember> ScanQueue::comparable_previous(const std::string& path, const Member& member,
                                                             const ByteSource& data) const {
  if (!previous_member_ || !member.compression || member.error || member.size > max_file_size_ ||
      member.stored_size > max_file_size_ || member.size > limits_.max_member_size)
    return std::nullopt;
  auto previous = previous_member_(path);
  if (!previous || previous->size != member.size || previous->stored_size != member.stored_size ||
      !data.contains(member.offset, member.stored_size))
    return std::nullopt;
  return previous;
}

const std::unordered_multimap<std::string, std::size_t>& ScanQueue::member_stems(Frame& frame) {
  if (frame.by_folded_stem.empty())
    for (std::size_t i = 0; i < frame.members.size(); ++i)
      frame.by_folded_stem.emplace(folded_stem(frame.members[i].path), i);
  return frame.by_folded_stem;
}

// A just-listed container of a re-index: the members comparable_previous allows (those that may
// be kept by the hash of their stored bytes) go last, so the others, whose sizes already say that
// they changed, are opened first and their parses handed out before the scan stops to hash the
// rest. Their hashes were taken first before: the KH2 DVD's changed set reached its parse after
// every set's stored bytes were hashed and every earlier set's row was kept (bench/RESULTS.md,
// fifth session).
// One exception keeps its place: a comparable member sharing its stem with an uncompressed member.
// If it is now a table, that member may be its companion (companion_for takes only uncompressed
// ones), which must come after it to be recorded as the table's data, not indexed as a file.
void ScanQueue::order_members(Frame& frame) const {
  // Positions are 32-bit: a longer listing (past max_members' default of a million) keeps its order.
  if (!previous_member_ || frame.members.size() > UINT32_MAX) return;
  std::vector<std::uint32_t> comparable;
  for (std::size_t i = 0; i < frame.members.size(); ++i)
    if (frame.members[i].compression &&  // before the path is made: most members of most images are raw
        comparable_previous(frame.path + "/" + frame.members[i].path, frame.members[i], *frame.data))
      comparable.push_back(static_cast<std::uint32_t>(i));
  if (comparable.empty()) return;
  const auto& stems = member_stems(frame);
  std::erase_if(comparable, [&](std::uint32_t i) {
    const auto [first, last] = stems.equal_range(folded_stem(frame.members[i].path));
    return std::any_of(first, last, [&](const auto& stem) { return !frame.members[stem.second].compression; });
  });
  if (comparable.empty()) return;
  frame.order.reserve(frame.members.size());
  for (std::size_t i = 0, next = 0; i < frame.members.size(); ++i) {  // both lists ascend
    if (next < comparable.size() && comparable[next] == i) ++next;
    else frame.order.push_back(static_cast<std::uint32_t>(i));
  }
  frame.first_comparable = frame.order.size();
  frame.order.insert(frame.order.end(), comparable.begin(), comparable.end());
  frame.stored_hashes.resize(comparable.size());
}

// Hashes, across the threads, the stored bytes of every comparable member of the frame, when the
// first of them is reached; the scan waits for them (one at a time in the serial stage, reading a
// KH2 DVD's 221 MB of sets took longer than writing the one set that changed). A member left out
// of the order (order_members) is hashed in its own turn, as is one whose read fails here, which
// that turn reports.
void ScanQueue::hash_stored_bytes(Frame& frame) const {
  frame.hashed = true;
  // Isolated: this runs inside the index pipeline's scan stage (indexer/flight_budget.h).
  tbb::this_task_arena::isolate([&] {
    tbb::parallel_for(std::size_t{0}, frame.stored_hashes.size(), [&](std::size_t at) {
      const Member& member = frame.members[frame.order[frame.first_comparable + at]];
      try {
        frame.stored_hashes[at] = hash_range(*frame.data, member.offset, member.stored_size);
      } catch (const std::exception&) {
      }
    });
  });
}

// A compressed member of a changed image whose stored bytes hash as they did in the last dump
// (comparable_previous): the same content, kept as it was.
bool ScanQueue::stored_bytes_unchanged(ScanItem& item) {
  const Member& member = *item.member;
  const auto previous = comparable_previous(item.path, member, *item.parent_data);
  if (!previous) return false;
  if (!item.stored_hash) item.stored_hash = hash_range(*item.parent_data, member.offset, member.stored_size).text();
  if (*item.stored_hash != previous->stored_hash) return false;
  item.unchanged_stored = true;
  ++kept_undecompressed_;
  return true;
}

// Opens the member's head to see what it is; a container is listed (its members follow). Any
// failure is this item's error.
void ScanQueue::open_and_detect(ScanItem& item) {
  try {
    if (stored_bytes_unchanged(item)) return;
    const Member& member = *item.member;
    const bool keep_whole = member.compression && member.compression->backward && member.size <= max_file_size_;
    const auto opened =
        open_member(item.parent_data, member, limits_, *item.tally, known_content, keep_whole ? UINT64_MAX : kContainerDetectBytes);
    if (!opened.ok()) {
      item.open_error = opened.error();
      return;
    }
    item.compression = opened.value().compression;
    item.size = opened.value().size;
    const auto head = read_head(*opened.value().bytes, kContainerDetectBytes);
    item.container = detect_container(head, item.size, item.member->path);
    if (!item.container) {
      if (keep_whole) item.decoded = opened.value().bytes;
      return;
    }
    if (item.depth >= static_cast<int>(limits_.max_depth)) {
      item.container_error = ParseError{0, fmt::format("containers nested at most {} deep", limits_.max_depth),
                                        "a deeper one; not opened"};
      return;
    }
    auto bytes = opened.value().bytes;
    const bool decompressed = opened.value().compression != nullptr;
    if (opened.value().head_only) {  // a compressed container: its whole content, to list it
      if (item.size + budget_->held() > limits_.max_held_decompressed) {  // charged in expand()
        item.container_error = budget_->hold(item.size);
        return;
      }
      const auto whole = open_member(item.parent_data, *item.member, limits_, *item.tally, known_content);
      if (!whole.ok()) {
        item.container_error = whole.error();
        return;
      }
      bytes = whole.value().bytes;
    }
    expand(item, bytes, item.member->path, decompressed);
  } catch (const std::exception& error) {
    (item.container ? item.container_error : item.open_error) = unexpected(error);
  }
}

bool ScanQueue::mark_companion(ScanItem& item) const {
  const auto found = companions_.find(item.path);
  if (found == companions_.end() || found->second->companion_format.empty()) return false;
  item.companion_of = found->second;
  return true;
}

// A whole file compressed with LZ10/LZ11 (a DS file outside any archive): opened like a Nitro
// member, so it counts as compressed only when it decodes to something known; its content is then
// parsed, or listed when it is a container (an LZ-wrapped NARC).
ScanItem ScanQueue::whole_file_lz(ScanItem item, const std::shared_ptr<const ByteSource>& file, std::string_view name) {
  const auto& tally = budget_->tally();
  const auto whole = open_whole_file_compressed(file, name, limits_, *tally, known_content);  // shared with the verbs' open_input
  if (!whole) return item;
  item.member = whole->member;
  item.parent_data = file;
  item.tally = tally;
  item.compression = whole->member.compression;
  item.size = whole->member.size;
  const auto head = read_head(*whole->content.bytes, kContainerDetectBytes);
  item.container = detect_container(head, item.size, name);
  if (item.container) expand(item, whole->content.bytes, name, true);
  return item;
}

ScanItem ScanQueue::walked_item(std::size_t index) {
  const WalkEntry& entry = entries_[index];
  ScanItem item;
  item.entry_index = index;
  item.path = entry.relative_path;
  item.mtime_ns = entry.mtime_ns;
  item.size = entry.size;
  if (!entry.error.empty() || mark_companion(item)) return item;
  const PreviousState previous = previous_(entry);
  if (previous == PreviousState::unchanged_file) {  // not even opened
    item.unchanged = true;
    return item;
  }
  try {
    auto opened = FileSource::open(entry.absolute_path);
    auto* source = std::get_if<std::shared_ptr<FileSource>>(&opened);
    if (!source) return item;  // process_file reports why it cannot be read
    const auto head = read_head(**source, kContainerDetectBytes);
    const auto name = entry.absolute_path.filename().string();
    item.container = detect_container(head, (*source)->size(), name);
    if (!item.container) return head.size() >= 4 && (head[0] == std::byte{0x10} || head[0] == std::byte{0x11})
                                    ? whole_file_lz(std::move(item), *source, name)
                                    : item;
    item.size = (*source)->size();
    // A table whose data is a companion file is listed again: the companion may have changed.
    if (previous == PreviousState::unchanged_container && item.container->companion_extension.empty()) {
      item.unchanged = item.keep_members = true;
      return item;
    }
    expand(item, *source, name, false);
  } catch (const std::exception& error) {  // the file shrank or failed while its head was read
    if (item.container) item.container_error = unexpected(error);
    else item.container = nullptr;  // process_file reads it again and reports what fails
  }
  return item;
}

std::shared_ptr<const ByteSource> ScanQueue::companion_for(const ScanItem& item, const ContainerModule& container) {
  if (!item.member || item.depth == 0) {
    auto sibling = open_sibling(entries_[item.entry_index].absolute_path, container.companion_extension);
    if (sibling.source) {
      const auto& path = entries_[item.entry_index].relative_path;
      const auto slash = path.rfind('/');
      companions_[(slash == std::string::npos ? "" : path.substr(0, slash + 1)) + sibling.name] = &container;
    }
    return sibling.source;
  }
  if (frames_.empty()) return nullptr;
  Frame& parent = frames_.back();
  // A table listed by a table of its own kind (KH2's world tables) shares its parent's data.
  if (parent.module == &container) return parent.data;
  const auto [first, last] = member_stems(parent).equal_range(folded_stem(item.member->path));
  for (auto it = first; it != last; ++it) {
    const Member& sibling = parent.members[it->second];
    if (sibling.compression == nullptr && !sibling.error &&
        same_stem_with_extension(item.member->path, sibling.path, container.companion_extension)) {
      companions_[parent.path + "/" + sibling.path] = &container;
      return std::make_shared<RangeSource>(parent.data, sibling.offset, sibling.stored_size);
    }
  }
  return nullptr;
}

void ScanQueue::expand(ScanItem& item, const std::shared_ptr<const ByteSource>& bytes, std::string_view name,
                       bool decompressed) {
  const ContainerModule& module = *item.container;
  item.container_bytes = bytes;
  auto listed = list_container(module, bytes, name, [&] { return companion_for(item, module); }, limits_);
  if (!listed.ok()) {
    item.container_error = listed.error();
    return;
  }
  auto& members = listed.value().list.members;
  if (auto spent = budget_->charge_members(members.size(), item.path)) {
    item.container_error = std::move(spent);
    return;
  }
  const std::uint64_t held = decompressed ? bytes->size() : 0;
  if (auto spent = budget_->hold(held)) {
    item.container_error = std::move(spent);
    return;
  }
  item.warnings = std::move(listed.value().list.warnings);
  Frame frame;
  frame.path = item.path;
  frame.depth = item.depth;
  frame.module = &module;
  frame.data = listed.value().data;
  frame.tally = budget_->tally();
  frame.members = std::move(members);
  frame.held_bytes = held;
  order_members(frame);
  frames_.push_back(std::move(frame));
}

}  // namespace animdex
