#include "indexer/scan_queue.h"

#include <algorithm>
#include <fmt/format.h>

#include "containers/container_registry.h"
#include "containers/listing.h"
#include "formats/format.h"
#include "indexer/file_source.h"

namespace animdex {


ScanQueue::ScanQueue(const std::vector<WalkEntry>& entries, ContainerLimits limits,
                     std::function<bool(const WalkEntry&)> unchanged_container)
    : entries_(entries), limits_(limits), unchanged_container_(std::move(unchanged_container)) {}

std::optional<ScanItem> ScanQueue::next() {
  if (pending_.empty()) {
    open_.clear();
    if (next_entry_ == entries_.size()) return std::nullopt;
    return walked_item(next_entry_++);
  }
  ScanItem item = std::move(pending_.front());
  pending_.pop_front();
  // Depth first: containers opened at this depth or deeper are finished.
  while (!open_.empty() && open_.back().depth >= item.depth) open_.pop_back();
  if (mark_companion(item)) return item;
  const auto opened = open_member(item.parent_data, *item.member, limits_, *item.tally, kDetectBytes);
  if (!opened.ok()) {
    item.open_error = opened.error();
    return item;
  }
  item.compression = opened.value().compression;
  item.size = opened.value().size;
  const auto head = read_head(*opened.value().bytes, kDetectBytes);
  const ContainerModule* module = detect_container(head, item.size, item.member->path);
  if (!module) return item;
  item.container = module;
  if (item.depth >= static_cast<int>(limits_.max_depth)) {
    item.container_error = ParseError{0, fmt::format("containers nested at most {} deep", limits_.max_depth),
                                      "a deeper one; not opened"};
    return item;
  }
  auto bytes = opened.value().bytes;
  if (opened.value().head_only) {  // a compressed container: its whole content, to list it
    const auto whole = open_member(item.parent_data, *item.member, limits_, *item.tally);
    if (!whole.ok()) {
      item.container_error = whole.error();
      return item;
    }
    bytes = whole.value().bytes;
  }
  expand(item, bytes, item.member->path);
  return item;
}

bool ScanQueue::mark_companion(ScanItem& item) const {
  const auto found = companions_.find(item.path);
  if (found == companions_.end() || found->second->companion_format.empty()) return false;
  item.companion_of = found->second;
  if (item.member) item.size = item.member->size;
  return true;
}

// A whole file compressed with LZ10/LZ11 (a DS file outside any archive): opened like a Nitro
// member, so it counts as compressed only when it decodes to something known; its content is then
// parsed, or listed when it is a container (an LZ-wrapped NARC).
ScanItem ScanQueue::whole_file_lz(ScanItem item, const std::shared_ptr<const ByteSource>& file, std::string_view name) {
  Member whole;
  whole.stored_size = whole.size = file->size();
  whole.may_be_lz = true;
  auto tally = std::make_shared<DecompressionTally>(limits_.max_total_decompressed);
  const auto opened = open_member(file, whole, limits_, *tally);
  if (!opened.ok() || opened.value().compression == Compression::none) return item;
  whole.compression = opened.value().compression;
  whole.size = opened.value().size;
  item.member = whole;
  item.parent_data = file;
  item.tally = tally;
  item.compression = whole.compression;
  item.size = whole.size;
  const auto head = read_head(*opened.value().bytes, kContainerDetectBytes);
  item.container = detect_container(head, item.size, name);
  if (item.container) expand(item, opened.value().bytes, name);
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
  auto opened = FileSource::open(entry.absolute_path);
  auto* source = std::get_if<std::shared_ptr<FileSource>>(&opened);
  if (!source) return item;  // process_file reports why it cannot be read
  std::vector<std::byte> head;
  try {
    head = read_head(**source, kContainerDetectBytes);
  } catch (const ParseFailure&) {
    return item;  // the file shrank or failed: process_file reports it
  }
  const auto name = entry.absolute_path.filename().string();
  item.container = detect_container(head, (*source)->size(), name);
  if (!item.container) return whole_file_lz(std::move(item), *source, name);
  item.size = (*source)->size();
  if (unchanged_container_(entry)) {
    item.keep_members = true;
    return item;
  }
  expand(item, *source, name);
  return item;
}

std::shared_ptr<const ByteSource> ScanQueue::companion_for(const ScanItem& item, const ContainerModule& container) {
  if (!item.member) {
    auto sibling = open_sibling(entries_[item.entry_index].absolute_path, container.companion_extension);
    if (sibling.source) {
      const auto& path = entries_[item.entry_index].relative_path;
      const auto slash = path.rfind('/');
      companions_[(slash == std::string::npos ? "" : path.substr(0, slash + 1)) + sibling.name] = &container;
    }
    return sibling.source;
  }
  if (open_.empty()) return nullptr;
  const OpenContainer& parent = open_.back();
  // A table listed by a table of its own kind (KH2's world tables) shares its parent's data.
  if (parent.module == &container) return parent.data;
  for (const Member& sibling : parent.members)
    if (sibling.compression == Compression::none &&
        same_stem_with_extension(item.member->path, sibling.path, container.companion_extension)) {
      companions_[parent.path + "/" + sibling.path] = &container;
      return std::make_shared<RangeSource>(parent.data, sibling.offset, sibling.stored_size);
    }
  return nullptr;
}

void ScanQueue::expand(ScanItem& item, const std::shared_ptr<const ByteSource>& bytes, std::string_view name) {
  const ContainerModule& module = *item.container;
  item.container_bytes = bytes;
  auto listed = list_container(module, bytes, name, [&] { return companion_for(item, module); }, limits_);
  if (!listed.ok()) {
    item.container_error = listed.error();
    return;
  }
  auto& members = listed.value().list.members;
  const auto data = listed.value().data;
  item.member_count = members.size();
  item.warnings = std::move(listed.value().list.warnings);
  auto tally = std::make_shared<DecompressionTally>(limits_.max_total_decompressed);
  for (auto member = members.rbegin(); member != members.rend(); ++member) {
    ScanItem child;
    child.entry_index = item.entry_index;
    child.path = item.path + "/" + member->path;
    child.mtime_ns = item.mtime_ns;
    child.depth = item.depth + 1;
    child.member = *member;
    child.parent_path = item.path;
    child.parent_data = data;
    child.tally = tally;
    pending_.push_front(std::move(child));
  }
  open_.push_back({item.path, item.depth, &module, data, std::move(members)});
}

}  // namespace animdex
