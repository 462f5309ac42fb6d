#include "containers/nitro_fnt.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>

#include "core/byte_reader.h"
#include "core/byte_writer.h"
#include "core/parse_error.h"

namespace animdex::nitro_fnt {

namespace {

constexpr std::uint64_t kEntrySize = 8;             // u32 sub-table offset, u16 first file ID, u16 parent
constexpr std::uint64_t kMaxDirectories = 0x1000;  // IDs 0xF000..0xFFFF
constexpr std::uint8_t kEndOfTable = 0x00;
constexpr std::uint8_t kReservedRecord = 0x80;
constexpr std::uint8_t kDirectoryFlag = 0x80;
constexpr std::size_t kMaxNameLength = 0x7F;
constexpr std::uint64_t kMaxFaultWarnings = 16;

std::string join(const std::string& directory, std::string_view name) {
  return directory.empty() ? std::string(name) : directory + "/" + std::string(name);
}

// Offsets inside the walker are FNT-relative; every check reads only after testing the range,
// and every failure names base + offset, the byte in the container.
class Walker {
 public:
  Walker(std::span<const std::byte> fnt, std::uint64_t base, std::uint64_t file_count, const ContainerLimits& limits,
         FntFaults faults)
      : in_(fnt), base_(base), file_count_(file_count), limits_(limits), lenient_(faults == FntFaults::skip) {}

  FntListing run() {
    if (!read_root()) return finish();
    visited_.assign(listing_.directory_count, false);
    directory_paths_.assign(listing_.directory_count, std::string());
    std::vector<std::uint16_t> pending = {0};
    visited_[0] = true;
    std::uint64_t reached = 1;
    while (!pending.empty()) {
      const std::uint16_t directory = pending.back();
      pending.pop_back();
      walk_directory(directory, pending, reached);
    }
    if (reached < listing_.directory_count)
      listing_.warnings.push_back(fmt::format("{} of the FNT's {} directories are not reachable from the root",
                                              listing_.directory_count - reached, listing_.directory_count));
    sort_and_check_ids();
    return finish();
  }

 private:
  [[noreturn]] void fail(std::uint64_t at, std::string expected, std::string found) const {
    fail_at(base_ + at, std::move(expected), std::move(found));
  }

  // A rule of the FNT broken (not a cap): a strict walk fails; a lenient one notes it (the first
  // kMaxFaultWarnings, then a count) and the caller skips what it spoils, so one bad name or record
  // costs only the names it touches (issue 35).
  void fault(std::uint64_t at, std::string expected, std::string found,
             std::string_view outcome = "the names it spoils are skipped") {
    if (!lenient_) fail(at, std::move(expected), std::move(found));
    if (faults_++ < kMaxFaultWarnings)
      listing_.warnings.push_back(
          fmt::format("{}; {}", ParseError{base_ + at, std::move(expected), std::move(found)}.message(), outcome));
  }

  FntListing finish() {
    if (faults_ > kMaxFaultWarnings)
      listing_.warnings.push_back(fmt::format("{} more faults in the FNT not listed", faults_ - kMaxFaultWarnings));
    return std::move(listing_);
  }

  bool read_root() {
    if (in_.size() < kEntrySize) {
      fault(0, "an FNT of at least 8 bytes (the root directory entry)", fmt::format("{} bytes", in_.size()));
      return false;
    }
    const std::uint16_t count = in_.u16le(6);
    if (count == 0) {
      fault(6, "a directory count D >= 1 in the root entry", "0");
      return false;
    }
    if (count > kMaxDirectories) {
      fault(6, "at most 4096 directories (IDs 0xF000-0xFFFF)", std::to_string(count));
      return false;
    }
    if (kEntrySize * count > in_.size()) {
      fault(6, fmt::format("a directory table of 8*D bytes inside the FNT's {} bytes", in_.size()),
            fmt::format("D = {} ({} bytes)", count, kEntrySize * count));
      return false;
    }
    listing_.directory_count = count;
    listing_.root_first_file_id = in_.u16le(4);
    return true;
  }

  void walk_directory(std::uint16_t directory, std::vector<std::uint16_t>& pending, std::uint64_t& reached) {
    const std::uint64_t entry_at = kEntrySize * directory;
    std::uint64_t at = in_.u32le(entry_at);
    if (at >= in_.size()) {
      fault(entry_at, fmt::format("a sub-table offset inside the FNT's {} bytes", in_.size()), fmt::format("{:#x}", at));
      return;
    }
    std::uint64_t file_id = in_.u16le(entry_at + 4);
    for (;;) {
      if (at >= in_.size()) {
        fault(at, "a sub-table record or its 0x00 end", fmt::format("the end of the {}-byte FNT", in_.size()));
        return;
      }
      const std::uint8_t type = in_.u8(at);
      if (type == kEndOfTable) return;
      if (type == kReservedRecord) {
        fault(at, "a record type 0x00-0x7F or 0x81-0xFF (0x80 is reserved)", "0x80");
        return;  // its length is unknown: the rest of this sub-table cannot be read
      }
      const auto name = read_name(at, type & kMaxNameLength);
      if (!name) return;
      const std::uint64_t record_at = at;
      at += 1 + name->size();
      if (type & kDirectoryFlag) {
        const auto entered = enter_child(at, join(directory_paths_[directory], *name), pending);
        if (entered == Child::cut_off) return;
        if (entered == Child::entered) ++reached;
        at += 2;
      } else {
        add_file(record_at, file_id++, join(directory_paths_[directory], *name));
      }
    }
  }

  // The name, or nothing when it runs past the FNT. A name with a '/' or NUL, or "." or "..", is
  // a fault that spoils nothing once noted: listing makes it a plain path (NUL escaped, ".."
  // written %2E%2E, '/' a separator) and one name stays one member.
  std::optional<std::string> read_name(std::uint64_t record_at, std::size_t length) {
    if (!in_.contains(record_at + 1, length)) {
      fault(record_at, fmt::format("a {}-byte name inside the FNT's {} bytes", length, in_.size()),
            fmt::format("{} bytes left", in_.size() - record_at - 1));
      return std::nullopt;
    }
    std::string name = in_.ascii(record_at + 1, length);
    if (name.find_first_of(std::string_view("/\0", 2)) != std::string::npos || name == "." || name == "..")
      fault(record_at + 1, "a file or directory name without '/' or NUL that is not \".\" or \"..\"",
            fmt::format("\"{}\"", name.substr(0, name.find('\0'))), "kept, made a plain path");
    return name;
  }

  enum class Child { entered, skipped, cut_off };
  Child enter_child(std::uint64_t id_at, std::string path, std::vector<std::uint16_t>& pending) {
    if (!in_.contains(id_at, 2)) {
      fault(id_at, "a 2-byte child directory ID after the name", "the end of the FNT");
      return Child::cut_off;
    }
    const std::uint16_t child_id = in_.u16le(id_at);
    const std::uint32_t last_id = kFirstDirectoryId + listing_.directory_count - 1;
    if (child_id < kFirstDirectoryId || child_id > last_id) {
      fault(id_at, fmt::format("a child directory ID in 0xF000-0x{:04X} (D = {})", last_id, listing_.directory_count),
            fmt::format("{:#06x}", child_id));
      return Child::skipped;
    }
    const std::uint16_t child = child_id - kFirstDirectoryId;
    if (visited_[child]) {
      fault(id_at, "each directory listed once (a directory inside itself would loop)",
            fmt::format("directory {:#06x} again", child_id));
      return Child::skipped;
    }
    charge_path(id_at, path.size());
    visited_[child] = true;
    directory_paths_[child] = std::move(path);
    pending.push_back(child);
    return Child::entered;
  }

  void add_file(std::uint64_t record_at, std::uint64_t file_id, std::string path) {
    if (file_id >= file_count_) {
      fault(record_at, fmt::format("a file ID below the {} files of the allocation table", file_count_),
            fmt::format("file ID {} for \"{}\"", file_id, path));
      return;
    }
    if (listing_.files.size() >= limits_.max_members)
      fail(record_at, fmt::format("at most {} named files", limits_.max_members), "more");
    charge_path(record_at, path.size());
    listing_.files.push_back({static_cast<std::uint32_t>(file_id), std::move(path), base_ + record_at});
  }

  // Deep trees repeat their directory names in every path: cap what the names can cost in all.
  void charge_path(std::uint64_t at, std::size_t length) {
    path_bytes_ += length;
    if (path_bytes_ > limits_.max_table_size)
      fail(at, fmt::format("at most {} bytes of paths in all", limits_.max_table_size), fmt::format("{}", path_bytes_));
  }

  void sort_and_check_ids() {
    auto& files = listing_.files;
    std::stable_sort(files.begin(), files.end(), [](const FntFile& a, const FntFile& b) { return a.file_id < b.file_id; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (kept > 0 && files[i].file_id == files[kept - 1].file_id) {
        fault(std::max(files[i].record_offset, files[kept - 1].record_offset) - base_, "each file ID named once",
              fmt::format("file ID {} named \"{}\" and \"{}\"", files[i].file_id, files[kept - 1].path, files[i].path));
        continue;  // the first name found stays
      }
      if (kept != i) files[kept] = std::move(files[i]);
      ++kept;
    }
    files.resize(kept);
  }

  ByteReader in_;
  std::uint64_t base_, file_count_;
  const ContainerLimits& limits_;
  bool lenient_;
  std::uint64_t faults_ = 0;
  FntListing listing_;
  std::vector<bool> visited_;
  std::vector<std::string> directory_paths_;
  std::uint64_t path_bytes_ = 0;
};

// --- building ---------------------------------------------------------------------------------

struct TreeRecord {
  bool directory = false;
  std::string name;
  std::size_t index = 0;  // a directory's node index, or a file's path index
};

struct TreeDirectory {
  std::size_t parent = 0;
  std::vector<TreeRecord> records;
  std::map<std::string, std::size_t> children;  // name -> node index
  std::set<std::string> names;                  // every name used in this directory
};

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = path.find('/', start);
    parts.push_back(path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  for (const auto& part : parts)
    if (part.empty() || part.size() > kMaxNameLength || part.find('\0') != std::string::npos || part == "." || part == "..")
      throw std::invalid_argument("FNT path component must be 1-127 bytes without NUL and not . or ..: " + path);
  return parts;
}

std::vector<TreeDirectory> build_tree(const std::vector<std::string>& paths) {
  std::vector<TreeDirectory> nodes(1);
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const auto parts = split_path(paths[i]);
    std::size_t node = 0;
    for (std::size_t p = 0; p + 1 < parts.size(); ++p) {
      auto found = nodes[node].children.find(parts[p]);
      if (found == nodes[node].children.end()) {
        if (nodes[node].names.count(parts[p])) throw std::invalid_argument("FNT path is also a file: " + paths[i]);
        const std::size_t child = nodes.size();
        nodes.push_back({node, {}, {}, {}});
        nodes[node].records.push_back({true, parts[p], child});
        nodes[node].children.emplace(parts[p], child);
        nodes[node].names.insert(parts[p]);
        found = nodes[node].children.find(parts[p]);
      }
      node = found->second;
    }
    if (!nodes[node].names.insert(parts.back()).second)
      throw std::invalid_argument("FNT path named twice (or also a directory): " + paths[i]);
    nodes[node].records.push_back({false, parts.back(), i});
  }
  if (nodes.size() > kMaxDirectories) throw std::invalid_argument("an FNT holds at most 4096 directories");
  return nodes;
}

// Directory IDs breadth first from the root: position in the returned list.
std::vector<std::size_t> breadth_first(const std::vector<TreeDirectory>& nodes) {
  std::vector<std::size_t> order = {0};
  for (std::size_t i = 0; i < order.size(); ++i)
    for (const auto& record : nodes[order[i]].records)
      if (record.directory) order.push_back(record.index);
  return order;
}

}  // namespace

FntListing walk_fnt(std::span<const std::byte> fnt, std::uint64_t base, std::uint64_t file_count,
                    const ContainerLimits& limits, FntFaults faults) {
  return Walker(fnt, base, file_count, limits, faults).run();
}

FntLayout build_fnt(const std::vector<std::string>& paths, std::uint16_t first_file_id) {
  const auto nodes = build_tree(paths);
  const auto order = breadth_first(nodes);
  std::vector<std::size_t> id_of(nodes.size());
  for (std::size_t k = 0; k < order.size(); ++k) id_of[order[k]] = k;

  FntLayout layout;
  ByteWriter sub_tables;
  std::vector<std::uint32_t> sub_offsets, first_ids;
  std::uint32_t next_file = first_file_id;
  const std::uint64_t table_size = kEntrySize * order.size();
  for (std::size_t node : order) {
    sub_offsets.push_back(static_cast<std::uint32_t>(table_size + sub_tables.size()));
    first_ids.push_back(next_file);
    for (const auto& record : nodes[node].records) {
      const auto length = static_cast<std::uint8_t>(record.name.size());
      sub_tables.u8(record.directory ? (kDirectoryFlag | length) : length);
      sub_tables.append(std::as_bytes(std::span(record.name.data(), record.name.size())));
      if (record.directory) {
        sub_tables.u16(static_cast<std::uint16_t>(kFirstDirectoryId + id_of[record.index]), LE);
      } else {
        layout.file_order.push_back(record.index);
        ++next_file;
      }
    }
    sub_tables.u8(kEndOfTable);
  }
  if (next_file > kFirstDirectoryId) throw std::invalid_argument("an FNT names file IDs below 0xF000 only");

  ByteWriter table;
  for (std::size_t k = 0; k < order.size(); ++k) {
    table.u32(sub_offsets[k], LE);
    table.u16(static_cast<std::uint16_t>(first_ids[k]), LE);
    // The root's last field is the directory count; the others name their parent.
    table.u16(static_cast<std::uint16_t>(k == 0 ? order.size() : kFirstDirectoryId + id_of[nodes[order[k]].parent]), LE);
  }
  table.append(sub_tables.bytes());
  layout.table = table.take();
  return layout;
}

std::vector<std::byte> nameless_fnt() {
  ByteWriter table;
  table.u32(4, LE);
  table.u16(0, LE);
  table.u16(1, LE);
  return table.take();
}

}  // namespace animdex::nitro_fnt
