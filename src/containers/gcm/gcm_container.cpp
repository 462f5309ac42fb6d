#include "containers/gcm/gcm_container.h"

#include <cstring>
#include <fmt/format.h>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::gcm {

namespace {

struct FstPlace {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

// The GameCube magic, or a precise refusal (a Wii disc names itself at 0x18: containers.md 2).
void require_gamecube_magic(const ByteReader& boot) {
  const std::uint32_t magic = boot.u32be(kMagicOffset);
  if (magic == kGameCubeMagic) return;
  if (boot.u32be(kWiiMagicOffset) == kWiiMagic)
    fail_at(kWiiMagicOffset, "a GameCube disc (Wii discs have encrypted partitions and are not read)",
            fmt::format("the Wii magic {:#010x}", kWiiMagic));
  fail_at(kMagicOffset, fmt::format("the GameCube magic {:#010x}", kGameCubeMagic), fmt::format("{:#010x}", magic));
}

// boot.bin (containers.md 2): the magic, then where the FST is. Its size is checked against the
// table cap before anything is allocated, and its range against the image (64-bit sums).
FstPlace read_boot(const ByteSource& image, const ContainerLimits& limits) {
  if (image.size() < kBootSize)
    fail_at(0, fmt::format("a {:#x}-byte boot.bin", kBootSize), fmt::format("an image of {} bytes", image.size()));
  const std::vector<std::byte> boot_bytes = image.read_vector(0, kBootSize);
  const ByteReader boot(boot_bytes);
  require_gamecube_magic(boot);
  const FstPlace fst{boot.u32be(kFstOffsetField), boot.u32be(kFstSizeField)};
  if (fst.size < kFstEntrySize)
    fail_at(kFstSizeField, "an FST of at least 12 bytes (the root entry)", fmt::format("{} bytes", fst.size));
  if (fst.size > limits.max_table_size)
    fail_at(kFstSizeField, fmt::format("an FST of at most {} bytes (the table cap)", limits.max_table_size),
            fmt::format("{} bytes", fst.size));
  if (!image.contains(fst.offset, fst.size))
    fail_at(kFstOffsetField, fmt::format("an FST inside the {}-byte image", image.size()),
            fmt::format("{} bytes at {:#x}", fst.size, fst.offset));
  return fst;
}

struct FstEntry {
  bool is_directory = false;   // Dolphin: any nonzero type byte
  std::uint32_t name_offset = 0;  // into the string table
  std::uint32_t first = 0;     // file: disc offset; directory: parent index
  std::uint32_t second = 0;    // file: length; directory: index one past its last descendant
};

FstEntry entry_at(const ByteReader& fst, std::uint64_t index) {
  const std::uint64_t at = index * kFstEntrySize;
  const std::uint32_t type_and_name = fst.u32be(at);
  return {(type_and_name >> 24) != 0, type_and_name & 0xFFFFFF, fst.u32be(at + 4), fst.u32be(at + 8)};
}

// Shift-JIS lead bytes: the byte after one is the second half of a character and may look like
// an ASCII letter, so it must not be case-folded.
bool is_shift_jis_lead(unsigned char byte) { return (byte >= 0x81 && byte <= 0x9F) || (byte >= 0xE0 && byte <= 0xFC); }

// The key two paths share when Dolphin's case-insensitive lookup cannot tell them apart.
std::string folded_path(std::string_view path) {
  std::string folded(path);
  for (std::size_t i = 0; i < folded.size(); ++i) {
    const auto byte = static_cast<unsigned char>(folded[i]);
    if (is_shift_jis_lead(byte)) ++i;
    else if (byte >= 'A' && byte <= 'Z') folded[i] = static_cast<char>(byte - 'A' + 'a');
  }
  return folded;
}

struct OpenDirectory {
  std::uint32_t index = 0;
  std::uint32_t end = 0;  // index one past its last descendant
  std::string prefix;     // its path with a trailing '/', empty for the root
};

// Walks the FST (containers.md 2, Dolphin's FileSystemGCWii rules). Offsets in its errors are
// relative to the FST; list_gcm moves them into the image.
class FstWalk {
  // At most this many warnings of one kind, then a count: an FST of zeros (free in a CISO, whose
  // absent blocks read as zeros) repeats one path millions of times (issue 35: 5.5 M warning rows).
  static constexpr std::uint64_t kWarningsPerKind = 16;
  enum WarningKind : std::size_t { kRepeated, kEmptyPast, kCutShort, kWarningKinds };
  bool warn(WarningKind kind) { return warned_[kind]++ < kWarningsPerKind; }
  std::uint64_t warned_[kWarningKinds] = {};

 public:
  FstWalk(std::span<const std::byte> fst, std::uint64_t data_size, const ContainerLimits& limits)
      : fst_(fst), data_size_(data_size), limits_(limits) {}

  MemberList run() {
    const std::uint32_t entry_count = check_root();
    open_.push_back({0, entry_count, ""});
    // The root's end is the entry count, so it is never popped: every entry has an open parent.
    for (std::uint32_t index = 1; index < entry_count; ++index) {
      while (index >= open_.back().end) open_.pop_back();
      visit(index);
    }
    static constexpr std::string_view kWhat[kWarningKinds] = {"repeated paths", "empty files past the image",
                                                              "files cut short"};
    for (std::size_t kind = 0; kind < kWarningKinds; ++kind)
      if (warned_[kind] > kWarningsPerKind)
        listing_.warnings.push_back(fmt::format("{} more {} not listed", warned_[kind] - kWarningsPerKind, kWhat[kind]));
    return std::move(listing_);
  }

 private:
  // Dolphin's order: root is a directory, 12*count fits, the last byte is NUL, then the root's
  // own entry rules (name offset inside, parent 0, end > 0).
  std::uint32_t check_root() {
    const FstEntry root = entry_at(fst_, 0);
    if (!root.is_directory) fail_at(0, "a root entry that is a directory (type byte nonzero)", "type 0 (a file)");
    const std::uint32_t entry_count = root.second;
    if (kFstEntrySize * entry_count > fst_.size())
      fail_at(8, fmt::format("at most {} entries in the {}-byte FST", fst_.size() / kFstEntrySize, fst_.size()),
              fmt::format("{} entries", entry_count));
    const std::uint64_t last = fst_.size() - 1;
    if (fst_.u8(last) != 0)
      fail_at(last, "a NUL as the FST's last byte (it ends the last name)", fmt::format("{:#04x}", fst_.u8(last)));
    string_table_ = kFstEntrySize * entry_count;
    check_name_offset(0, root);
    if (root.first != 0) fail_at(4, "parent index 0 for the root", fmt::format("{}", root.first));
    if (entry_count == 0) fail_at(8, "an entry count of at least 1 (the root itself)", "0");
    return entry_count;
  }

  void check_name_offset(std::uint64_t entry_at, const FstEntry& entry) const {
    if (string_table_ + entry.name_offset >= fst_.size())
      fail_at(entry_at + 1,
              fmt::format("a name offset inside the {}-byte string table", fst_.size() - string_table_),
              fmt::format("{:#x}", entry.name_offset));
  }

  // The NUL-terminated name, bytes as stored (Shift-JIS is not transcoded).
  std::string_view name_of(std::uint64_t entry_at, const FstEntry& entry) const {
    check_name_offset(entry_at, entry);
    const std::uint64_t at = string_table_ + entry.name_offset;
    const auto rest = fst_.bytes().subspan(static_cast<std::size_t>(at));
    const void* nul = std::memchr(rest.data(), 0, rest.size());
    // Unreachable once the last byte is known to be NUL; kept so no name can run past the FST.
    if (nul == nullptr) fail_at(at, "a NUL-terminated name", "a name running to the FST's end");
    const std::string_view name(reinterpret_cast<const char*>(rest.data()),
                                static_cast<std::size_t>(static_cast<const std::byte*>(nul) - rest.data()));
    if (name.empty()) fail_at(at, "a non-empty name", "an empty name");
    if (const auto slash = name.find('/'); slash != std::string_view::npos)
      fail_at(at + slash, "a name without '/' (it separates path components)", fmt::format("'{}'", name));
    return name;
  }

  void visit(std::uint32_t index) {
    const std::uint64_t at = kFstEntrySize * index;
    const FstEntry entry = entry_at(fst_, index);
    const std::string_view name = name_of(at, entry);
    if (entry.is_directory) open_directory(index, at, entry, name);
    else add_file(index, at, entry, name);
  }

  // Dolphin's directory rules; together they make every directory's range nest inside its
  // parent's, so the walk cannot cycle.
  void open_directory(std::uint32_t index, std::uint64_t at, const FstEntry& entry, std::string_view name) {
    const OpenDirectory& parent = open_.back();
    if (entry.first != parent.index)
      fail_at(at + 4, fmt::format("parent index {} (the enclosing directory)", parent.index),
              fmt::format("{}", entry.first));
    if (entry.second <= index)
      fail_at(at + 8, fmt::format("an end index greater than the directory's own index {}", index),
              fmt::format("{}", entry.second));
    if (entry.second > parent.end)
      fail_at(at + 8, fmt::format("an end index at most {} (the enclosing directory's end)", parent.end),
              fmt::format("{}", entry.second));
    std::string prefix = charged_path(at, parent.prefix, name);
    prefix += '/';
    open_.push_back({index, entry.second, std::move(prefix)});
  }

  void add_file(std::uint32_t index, std::uint64_t at, const FstEntry& entry, std::string_view name) {
    std::string path = charged_path(at, open_.back().prefix, name);
    // A repeated path first: Dolphin's lookup never reaches the later entry, so its range is moot.
    const auto [first, inserted] = first_index_.try_emplace(folded_path(path), index);
    if (!inserted) {
      if (warn(kRepeated))
        listing_.warnings.push_back(fmt::format("FST entry {} ('{}') repeats the path of entry {}; kept the first",
                                                index, path, first->second));
      return;
    }
    if (entry.second == 0 && entry.first > data_size_) {
      // An empty file has no bytes to read; a trimmed image may end before the offset it names.
      if (warn(kEmptyPast))
        listing_.warnings.push_back(fmt::format("FST entry {} ('{}'): empty file at {:#x}, past the {}-byte image; skipped",
                                                index, path, entry.first, data_size_));
      return;
    }
    // A file cut off by a trimmed or truncated image is still listed: opening it fails, so it is
    // one error row and the files before the cut are read (issue: errors stay local).
    if (std::uint64_t{entry.first} + entry.second > data_size_ && warn(kCutShort))
      listing_.warnings.push_back(fmt::format("FST entry {} ('{}'): {} bytes at {:#x} end at {:#x}, past a file "
                                              "inside the {}-byte image (cut short?)",
                                              index, path, entry.second, entry.first,
                                              std::uint64_t{entry.first} + entry.second, data_size_));
    if (listing_.members.size() >= limits_.max_members)
      fail_at(at, fmt::format("at most {} files (the member cap)", limits_.max_members), "more");
    Member member;
    member.stored_name = path;
    member.path = std::move(path);
    member.offset = entry.first;
    member.stored_size = member.size = entry.second;
    listing_.members.push_back(std::move(member));
  }

  // Paths repeat their directories' names, so a deep FST could make them quadratic in its size:
  // their total is held to the table cap.
  std::string charged_path(std::uint64_t at, std::string_view prefix, std::string_view name) {
    path_bytes_ += prefix.size() + name.size();
    if (path_bytes_ > limits_.max_table_size)
      fail_at(at, fmt::format("paths totalling at most {} bytes (the table cap)", limits_.max_table_size),
              fmt::format("{} bytes by this entry", path_bytes_));
    std::string path;
    path.reserve(prefix.size() + name.size() + 1);
    path.append(prefix).append(name);
    return path;
  }

  ByteReader fst_;
  std::uint64_t data_size_;
  const ContainerLimits& limits_;
  std::uint64_t string_table_ = 0;
  std::uint64_t path_bytes_ = 0;
  std::vector<OpenDirectory> open_;
  std::unordered_map<std::string, std::uint32_t> first_index_;  // folded path -> first entry
  MemberList listing_;
};

}  // namespace

bool detect_gcm(std::span<const std::byte> head, std::uint64_t /*size*/) {
  const ByteReader reader(head);
  return reader.contains(kMagicOffset, 4) && reader.u32be(kMagicOffset) == kGameCubeMagic;
}

Result<MemberList> list_gcm(const ContainerInput& input, const ContainerLimits& limits) {
  return catch_parse_failure<MemberList>([&] {
    const FstPlace place = read_boot(input.table, limits);
    const std::vector<std::byte> fst = input.table.read_vector(place.offset, place.size);
    try {
      return FstWalk(fst, input.data.size(), limits).run();
    } catch (const ParseFailure& failure) {
      // The walk names offsets inside the FST; the caller wants them in the image.
      ParseError error = failure.error();
      error.offset += place.offset;
      throw ParseFailure(std::move(error));
    }
  });
}

ContainerModule container_module() {
  ContainerModule module;
  module.id = "gcm";
  module.description = "GameCube disc image (GCM/ISO): the files of its FST";
  module.detect = detect_gcm;
  module.list = list_gcm;
  return module;
}

}  // namespace animdex::gcm
