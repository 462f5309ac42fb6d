#include "containers/iso9660/iso9660_container.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <optional>
#include <unordered_set>
#include <vector>

#include "core/text.h"
#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::iso9660 {

namespace {

constexpr std::string_view kStandardId = "CD001";
constexpr std::size_t kMaxWarnings = 1000;
constexpr std::uint8_t kDirectoryFlag = 0x02;
constexpr std::uint8_t kMultiExtentFlag = 0x80;

// A hostile image could make every record disagree: the first kMaxWarnings are kept, then a count.
class Warnings {
 public:
  void add(std::string text) {
    if (list_.size() < kMaxWarnings) list_.push_back(std::move(text));
    else ++dropped_;
  }
  std::vector<std::string> take() {
    if (dropped_ > 0) list_.push_back(fmt::format("{} more warnings not shown", dropped_));
    return std::move(list_);
  }

 private:
  std::vector<std::string> list_;
  std::uint64_t dropped_ = 0;
};

std::string hex_bytes(std::span<const std::byte> bytes) {
  std::string text;
  for (const std::byte b : bytes) text += fmt::format("{}{:02X}", text.empty() ? "" : " ", std::to_integer<int>(b));
  return text;
}

// Bytes read from the image at `base`, with the both-endian fields of section 5 (little-endian copy
// then big-endian copy; the little-endian one is used, a disagreement is a warning).
class Block {
 public:
  Block(std::vector<std::byte> bytes, std::uint64_t base, Warnings& warnings)
      : bytes_(std::move(bytes)), reader_(bytes_), base_(base), warnings_(warnings) {}
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  std::uint64_t size() const { return bytes_.size(); }
  std::uint64_t absolute(std::uint64_t local) const { return base_ + local; }
  std::uint8_t u8(std::uint64_t local) const { return reader_.u8(local); }
  std::span<const std::byte> slice(std::uint64_t local, std::uint64_t length) const { return reader_.slice(local, length); }

  std::uint16_t both_u16(std::uint64_t local, std::string_view what) const {
    return agree(local, reader_.u16le(local), reader_.u16be(local + 2), what);
  }
  std::uint32_t both_u32(std::uint64_t local, std::string_view what) const {
    return agree(local, reader_.u32le(local), reader_.u32be(local + 4), what);
  }

 private:
  template <typename T>
  T agree(std::uint64_t local, T little, T big, std::string_view what) const {
    if (little != big)
      warnings_.add(fmt::format("{} at offset {:#x}: little-endian {} and big-endian {} disagree (the little-endian "
                                "copy is used)", what, absolute(local), little, big));
    return little;
  }

  std::vector<std::byte> bytes_;
  ByteReader reader_;
  std::uint64_t base_;
  Warnings& warnings_;
};

Block read_block(const ByteSource& image, std::uint64_t offset, std::uint64_t length, std::string_view what,
                 Warnings& warnings) {
  // The error stays inside the image: at the end it reaches, for a range that starts past it.
  if (!image.contains(offset, length))
    fail_at(std::min(offset, image.size()),
            fmt::format("{} at {:#x} ({} bytes) inside the {}-byte image", what, offset, length, image.size()),
            fmt::format("a range ending at {:#x}", offset + length));
  return Block(image.read_vector(offset, length), offset, warnings);
}

// One directory record (section 5), located by its absolute offset.
struct Record {
  std::uint64_t at = 0;
  std::uint8_t length = 0;
  std::uint8_t attribute_blocks = 0;  // extended attribute record before the data, in blocks
  std::uint32_t extent = 0;
  std::uint32_t data_length = 0;
  std::uint8_t flags = 0;
  std::string name;  // as recorded

  bool directory() const { return (flags & kDirectoryFlag) != 0; }
  bool multi_extent() const { return (flags & kMultiExtentFlag) != 0; }
  bool self_or_parent() const { return name.size() == 1 && (name[0] == '\0' || name[0] == '\1'); }
  std::uint64_t data_offset() const {
    return (static_cast<std::uint64_t>(extent) + attribute_blocks) * kSectorSize;
  }
};

// The record at `local`, whose length byte is not 0, with `room` bytes left in its sector.
Record read_record(const Block& block, std::uint64_t local, std::uint64_t room) {
  Record record;
  record.at = block.absolute(local);
  record.length = block.u8(local);
  if (record.length > room)
    fail_at(record.at, "a directory record inside its 2048-byte sector",
            fmt::format("{} bytes with {} left in the sector", record.length, room));
  if (record.length < kMinRecordSize)
    fail_at(record.at, "a record length of at least 33 + the name length", fmt::format("{}", record.length));
  const std::uint8_t name_length = block.u8(local + 32);
  if (name_length == 0) fail_at(record.at + 32, "a name of at least 1 byte", "0");
  if (record.length < kMinRecordSize + name_length)
    fail_at(record.at, "a record length of at least 33 + the name length",
            fmt::format("{} for a {}-byte name", record.length, name_length));
  record.attribute_blocks = block.u8(local + 1);
  record.extent = block.both_u32(local + 2, "a record's extent");
  record.data_length = block.both_u32(local + 10, "a record's data length");
  record.flags = block.u8(local + 25);
  (void)block.both_u16(local + 28, "a record's volume sequence number");
  const auto name = block.slice(local + 33, name_length);
  record.name.assign(reinterpret_cast<const char*>(name.data()), name.size());
  return record;
}

// Sector 16 on: the first primary descriptor, before the terminator (section 5).
std::uint64_t find_primary(const ByteSource& image, Warnings& warnings) {
  std::optional<std::uint64_t> primary;
  for (int index = 0; index < kMaxDescriptors; ++index) {
    const std::uint64_t offset = kFirstDescriptorOffset + static_cast<std::uint64_t>(index) * kSectorSize;
    const Block head = read_block(image, offset, 7, fmt::format("volume descriptor {}", index), warnings);
    const auto id = head.slice(1, kStandardId.size());
    if (std::string_view(reinterpret_cast<const char*>(id.data()), id.size()) != kStandardId)
      fail_at(offset + 1, "\"CD001\" (a volume descriptor)", hex_bytes(id));
    const std::uint8_t type = head.u8(0);
    if (type == kTerminator) {
      if (!primary) fail_at(offset, "a primary volume descriptor before the terminator", "the terminator");
      return *primary;
    }
    if (type == kPrimary && !primary) primary = offset;
  }
  fail_at(kFirstDescriptorOffset + kMaxDescriptors * kSectorSize,
          fmt::format("a volume descriptor set terminator within {} descriptors", kMaxDescriptors), "none");
}

// The primary descriptor's checks (section 5), and its root directory record.
Record read_primary(const ByteSource& image, std::uint64_t offset, Warnings& warnings) {
  const Block pvd = read_block(image, offset, kSectorSize, "the primary volume descriptor", warnings);
  if (pvd.u8(6) != 1) fail_at(offset + 6, "volume descriptor version 1", fmt::format("{}", pvd.u8(6)));
  const std::uint16_t block_size = pvd.both_u16(0x80, "the logical block size");
  if (block_size != kSectorSize)
    fail_at(offset + 0x80, "a logical block size of 2048", fmt::format("{}", block_size));
  const std::uint64_t volume_blocks = pvd.both_u32(0x50, "the volume space size");
  if (volume_blocks * kSectorSize > image.size())
    warnings.add(fmt::format("the image holds {} bytes, its volume {} blocks ({} bytes): a trimmed image (files past "
                             "its end are left out)", image.size(), volume_blocks, volume_blocks * kSectorSize));
  if (pvd.u8(kRootRecordOffset) != 34)
    fail_at(offset + kRootRecordOffset, "a 34-byte root directory record", fmt::format("{}", pvd.u8(kRootRecordOffset)));
  Record root = read_record(pvd, kRootRecordOffset, 34);
  if (!root.directory())
    fail_at(root.at + 25, "the root record flagged a directory", fmt::format("flags {:#04x}", root.flags));
  return root;
}

// Why a name cannot be a path component, or empty.
std::string name_problem(std::string_view name) {
  if (name.empty() || name == "." || name == "..") return fmt::format("the name \"{}\" is not a path component", name);
  if (name.find('/') != std::string_view::npos || name.find('\0') != std::string_view::npos)
    return "the name holds '/' or a NUL byte";
  return {};
}

struct Directory {
  std::uint64_t offset = 0, length = 0;
  std::string path, stored_path;  // "" for the root, else "A/B/"
  int depth = 1;
};

// Walks the tree depth first; each directory's records in their recorded order, files listed as
// they come, subdirectories visited after the files of their parent.
class TreeWalker {
 public:
  TreeWalker(const ContainerInput& input, const ContainerLimits& limits, Warnings& warnings)
      : input_(input), limits_(limits), warnings_(warnings) {}

  std::vector<Member> walk(const Record& root) {
    pending_.push_back(directory_for(root, nullptr, ""));
    while (!pending_.empty()) {
      const Directory directory = std::move(pending_.back());
      pending_.pop_back();
      read_directory(directory);
    }
    return std::move(members_);
  }

 private:
  // Section 5's rules for a directory record: extent inside the image, visited once, depth cap.
  Directory directory_for(const Record& record, const Directory* parent, const std::string& name) {
    Directory directory;
    directory.offset = record.data_offset();
    directory.length = record.data_length;
    directory.depth = parent ? parent->depth + 1 : 1;
    if (parent) {
      directory.path = parent->path + strip_version(name) + "/";
      directory.stored_path = parent->stored_path + name + "/";
    }
    if (directory.depth > kMaxDirectoryDepth)
      fail_at(record.at, fmt::format("directories nested at most {} levels deep", kMaxDirectoryDepth),
              fmt::format("{} at level {}", directory.path, directory.depth));
    if (!input_.table.contains(directory.offset, directory.length))
      fail_at(record.at, fmt::format("a directory extent inside the {}-byte image", input_.table.size()),
              fmt::format("[{:#x}, {:#x})", directory.offset, directory.offset + directory.length));
    if (!visited_.insert(record.extent).second)
      fail_at(record.at, "each directory extent visited once (no cycle)",
              fmt::format("extent {} again for \"{}\"", record.extent, directory.path));
    return directory;
  }

  void read_directory(const Directory& directory) {
    directory_bytes_ += directory.length;
    if (directory_bytes_ > limits_.max_table_size)
      fail_at(directory.offset, fmt::format("at most {} bytes of directories", limits_.max_table_size),
              fmt::format("{} with \"{}\"", directory_bytes_, directory.path));
    const Block block = read_block(input_.table, directory.offset, directory.length, "a directory extent", warnings_);
    DirectoryScan scan;
    std::vector<Directory> children;
    for (std::uint64_t sector = 0; sector < directory.length; sector += kSectorSize) {
      const std::uint64_t sector_end = std::min(directory.length, sector + kSectorSize);
      for (std::uint64_t local = sector; local < sector_end;) {
        if (block.u8(local) == 0) break;  // no more records in this sector (section 5)
        const Record record = read_record(block, local, sector_end - local);
        local += record.length;
        take(record, directory, scan, children);
      }
    }
    pending_.insert(pending_.end(), std::make_move_iterator(children.rbegin()), std::make_move_iterator(children.rend()));
  }

  // Per directory: names seen (case-insensitively, section 5) and the multi-extent file being skipped.
  struct DirectoryScan {
    std::unordered_set<std::string> names;
    std::string skipping_extents_of;
  };

  void take(const Record& record, const Directory& parent, DirectoryScan& scan, std::vector<Directory>& children) {
    if (record.self_or_parent()) return;
    const std::string name = strip_version(record.name);
    const std::string path = parent.path + name;
    if (skip_multi_extent(record, lowercase_ascii(name), path, scan)) return;
    if (const auto problem = name_problem(name); !problem.empty())
      return leave_out(record, parent.stored_path + record.name, problem);
    if (!scan.names.insert(lowercase_ascii(name)).second)
      return leave_out(record, path, "a name already in this directory (names compare case-insensitively)");
    if (record.directory()) {
      children.push_back(directory_for(record, &parent, record.name));
      return;
    }
    if (!input_.data.contains(record.data_offset(), record.data_length))
      return leave_out(record, path, fmt::format("bytes [{:#x}, {:#x}) outside the {}-byte image", record.data_offset(),
                                                 record.data_offset() + record.data_length, input_.data.size()));
    if (members_.size() >= limits_.max_members)
      fail_at(record.at, fmt::format("at most {} files", limits_.max_members), "more");
    members_.push_back({path, parent.stored_path + record.name, record.data_offset(), record.data_length,
                        record.data_length, nullptr, false, std::nullopt});
  }

  // Section 5: multi-extent files (flag bit 7 on every record but the last) are refused.
  bool skip_multi_extent(const Record& record, const std::string& key, const std::string& path, DirectoryScan& scan) {
    if (!scan.skipping_extents_of.empty() && key == scan.skipping_extents_of) {
      if (!record.multi_extent()) scan.skipping_extents_of.clear();
      return true;
    }
    scan.skipping_extents_of.clear();
    if (!record.multi_extent()) return false;
    leave_out(record, path, "a multi-extent file (flag bit 7), which this reader refuses");
    scan.skipping_extents_of = key;
    return true;
  }

  void leave_out(const Record& record, const std::string& path, const std::string& why) {
    warnings_.add(fmt::format("\"{}\" (record at offset {:#x}) left out: {}", path, record.at, why));
  }

  const ContainerInput& input_;
  const ContainerLimits& limits_;
  Warnings& warnings_;
  std::vector<Directory> pending_;
  std::unordered_set<std::uint32_t> visited_;
  std::uint64_t directory_bytes_ = 0;
  std::vector<Member> members_;
};

}  // namespace

bool detect_iso9660(std::span<const std::byte> head, std::uint64_t size) {
  (void)size;
  if (head.size() < kFirstDescriptorOffset + 6) return false;
  const auto type = std::to_integer<std::uint8_t>(head[kFirstDescriptorOffset]);
  const std::string_view id(reinterpret_cast<const char*>(head.data() + kFirstDescriptorOffset + 1), kStandardId.size());
  return (type == kPrimary || type == kSupplementary) && id == kStandardId;
}

std::string strip_version(std::string_view recorded) {
  std::string name(recorded);
  const auto semicolon = name.rfind(';');
  if (semicolon != std::string::npos &&
      std::all_of(name.begin() + static_cast<std::ptrdiff_t>(semicolon) + 1, name.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }))
    name.erase(semicolon);
  if (name.size() > 1 && name.back() == '.') name.pop_back();
  return name;
}

Result<MemberList> list_iso9660(const ContainerInput& input, const ContainerLimits& limits) {
  return catch_parse_failure<MemberList>([&] {
    Warnings warnings;
    const Record root = read_primary(input.table, find_primary(input.table, warnings), warnings);
    MemberList list;
    list.members = TreeWalker(input, limits, warnings).walk(root);
    list.warnings = warnings.take();
    return list;
  });
}

ContainerModule container_module() {
  ContainerModule module;
  module.id = "iso9660";
  module.description = "ISO9660 disc images (PS2 DVDs such as Kingdom Hearts II's): the primary volume's files";
  module.detect = detect_iso9660;
  module.list = list_iso9660;
  return module;
}

}  // namespace animdex::iso9660
