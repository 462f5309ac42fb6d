#include "containers/fpk/fpk_container.h"

#include "containers/fpk/prs.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <utility>
#include <vector>

#include "containers/member_paths.h"
#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::fpk {

namespace {

// GNTool rejects header values >= 2^31 (it reads them as Java ints); so do we (containers.md 1).
constexpr std::uint64_t kMaxFieldValue = 0x7FFFFFFF;

// Entry fields, relative to the entry (containers.md 1, "Entry i").
constexpr std::uint64_t kOffsetField = 0x14, kStoredSizeField = 0x18, kSizeField = 0x1C;

// At most this many warnings of one kind, then one line counting the rest: a hostile table of a
// million entries must not turn into a million strings.
constexpr int kWarningsPerKind = 16;

enum WarningKind : std::size_t { kNoNul, kWarningKinds };

class Warnings {
 public:
  explicit Warnings(std::vector<std::string>& out) : out_(out) {}
  void add(WarningKind kind, std::string message) {
    if (counts_[kind]++ < kWarningsPerKind) out_.push_back(std::move(message));
  }
  void finish(WarningKind kind, std::string_view what) {
    if (counts_[kind] > kWarningsPerKind)
      out_.push_back(fmt::format("{} more {} not listed", counts_[kind] - kWarningsPerKind, what));
  }

 private:
  std::vector<std::string>& out_;
  std::array<std::uint64_t, kWarningKinds> counts_{};
};

std::uint64_t table_end(std::uint64_t entry_count) { return kHeaderSize + kEntrySize * entry_count; }

std::string_view as_chars(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// The stored name: the bytes before the first NUL, or all 16 when there is none (flagged).
struct StoredName {
  std::string text;
  bool terminated = true;
};
StoredName read_name(const ByteReader& entry) {
  const auto field = as_chars(entry.slice(0, kNameSize));
  const auto nul = field.find('\0');
  if (nul == std::string_view::npos) return {std::string(field), false};
  return {std::string(field.substr(0, nul)), true};
}

std::uint32_t read_field(const ByteReader& entry, std::uint64_t field, std::uint64_t entry_at, std::string_view what) {
  const std::uint32_t value = entry.u32(field, BE);
  if (value > kMaxFieldValue)
    fail_at(entry_at + field, fmt::format("{} below 2^31 (GNTool reads it as a signed int)", what),
            fmt::format("{:#x}", value));
  return value;
}

struct Entry {
  Member member;
  bool name_terminated = true;
};

// One 32-byte entry at absolute `entry_at`, validated against the table's end and the data size.
Entry read_entry(const ByteReader& entry, std::uint64_t entry_at, std::uint64_t first_data, std::uint64_t data_size,
                 const ContainerLimits& limits) {
  const StoredName name = read_name(entry);
  if (name.text.empty()) fail_at(entry_at, "an entry name of at least one byte", "a NUL first byte");
  Member member;
  member.stored_name = name.text;
  member.offset = read_field(entry, kOffsetField, entry_at, "the data offset");
  member.stored_size = read_field(entry, kStoredSizeField, entry_at, "the stored size");
  member.size = read_field(entry, kSizeField, entry_at, "the uncompressed size");
  if (member.offset < first_data)
    fail_at(entry_at + kOffsetField, fmt::format("a data offset at or after the entry table's end {:#x}", first_data),
            fmt::format("{:#x}", member.offset));
  if (member.offset > data_size || member.stored_size > data_size - member.offset)
    fail_at(entry_at + kStoredSizeField,
            fmt::format("{} stored bytes at {:#x} inside the {}-byte FPK", member.stored_size, member.offset, data_size),
            fmt::format("the range ends at {:#x}", member.offset + member.stored_size));
  // Equal sizes mean "stored raw"; anything else is PRS (containers.md 1).
  member.compression = member.stored_size == member.size ? nullptr : &fpk::kPrsCodec;
  if (member.compression == &fpk::kPrsCodec && member.size > limits.max_member_size)
    fail_at(entry_at + kSizeField,
            fmt::format("an uncompressed size of at most {} bytes (the member cap)", limits.max_member_size),
            std::to_string(member.size));
  return {std::move(member), name.terminated};
}

// Reads the entry count at 0x04 and checks it against the source and the caps before anything
// is allocated for the table.
std::uint64_t read_entry_count(const ByteReader& header, std::uint64_t size, const ContainerLimits& limits) {
  const std::uint64_t entry_count = header.u32(4, BE);
  if (entry_count > kMaxFieldValue)
    fail_at(4, "an entry count below 2^31 (GNTool reads it as a signed int)", fmt::format("{:#x}", entry_count));
  if (entry_count > limits.max_members)
    fail_at(4, fmt::format("at most {} entries (the member cap)", limits.max_members), std::to_string(entry_count));
  if (kEntrySize * entry_count > limits.max_table_size)
    fail_at(4, fmt::format("an entry table of at most {} bytes (the table cap)", limits.max_table_size),
            fmt::format("{} entries ({} bytes)", entry_count, kEntrySize * entry_count));
  if (table_end(entry_count) > size)
    fail_at(4, fmt::format("an entry table ({} entries of 32 bytes) inside the {}-byte FPK", entry_count, size),
            fmt::format("the table ends at {:#x}", table_end(entry_count)));
  return entry_count;
}

// One entry that breaks a rule is an error member of its own, not the archive's failure (issue 35):
// its name (or `#index` when it has none) and the raw fields, for its row, and the rule it broke.
Member bad_entry(const ByteReader& entry, std::uint64_t index, ParseError error) {
  Member member;
  member.stored_name = read_name(entry).text;
  member.path = member.stored_name.empty() ? fmt::format("#{}", index) : restore_name(member.stored_name);
  member.offset = entry.u32(kOffsetField, BE);
  member.stored_size = entry.u32(kStoredSizeField, BE);
  member.size = entry.u32(kSizeField, BE);
  member.compression = member.stored_size == member.size ? nullptr : &fpk::kPrsCodec;
  member.error = std::move(error);
  return member;
}

// Every entry of the table, in order: a broken one is listed with its error; repeated paths are
// made unique by the one function the verbs' look-up shares (containers/member_paths.h).
void list_entries(const ContainerInput& input, const ContainerLimits& limits, std::uint64_t entry_count,
                  MemberList& list) {
  const auto table_bytes = input.table.read_vector(kHeaderSize, kEntrySize * entry_count);
  const ByteReader table(table_bytes);
  list.members.reserve(static_cast<std::size_t>(entry_count));
  Warnings warnings(list.warnings);
  for (std::uint64_t index = 0; index < entry_count; ++index) {
    const std::uint64_t entry_at = kHeaderSize + kEntrySize * index;
    const ByteReader entry(table.slice(kEntrySize * index, kEntrySize));
    try {
      auto [member, name_terminated] = read_entry(entry, entry_at, table_end(entry_count), input.data.size(), limits);
      if (!name_terminated)
        warnings.add(kNoNul, fmt::format("{}: entry {} name at {:#x} has no NUL in 16 bytes; using all 16", input.name,
                                         index, entry_at));
      member.path = restore_name(member.stored_name);
      list.members.push_back(std::move(member));
    } catch (const ParseFailure& failure) {
      list.members.push_back(bad_entry(entry, index, failure.error()));
    }
  }
  warnings.finish(kNoNul, "names without a NUL");
  make_member_paths_unique(list.members, list.warnings, input.name, kWarningsPerKind);
}

MemberList read_fpk(const ContainerInput& input, const ContainerLimits& limits) {
  const std::uint64_t size = input.table.size();
  if (size < kHeaderSize) fail_at(0, "an FPK header of 16 bytes", fmt::format("{} bytes", size));
  const auto header_bytes = input.table.read_vector(0, kHeaderSize);
  const ByteReader header(header_bytes);
  const std::uint64_t entry_count = read_entry_count(header, size, limits);
  const std::uint64_t data_size = input.data.size();
  const std::uint64_t first_data = table_end(entry_count);
  if (first_data > data_size)
    fail_at(4, fmt::format("an entry table ending inside the {}-byte data source", data_size),
            fmt::format("the table ends at {:#x}", first_data));

  MemberList list;
  // Word 0x0C is the size the packer wrote; a difference is worth knowing, not fatal (note 1).
  if (const std::uint64_t declared = header.u32(0x0C, BE); declared != size)
    list.warnings.push_back(fmt::format("{}: the header's total size {} differs from the real size {}", input.name,
                                        declared, size));

  list_entries(input, limits, entry_count, list);
  return list;
}

bool printable_ascii(char c) { return c >= 0x20 && c <= 0x7E; }

}  // namespace

bool detect_fpk(std::span<const std::byte> head, std::uint64_t size) {
  if (head.size() < kHeaderSize + kEntrySize || size < kHeaderSize + kEntrySize) return false;
  const ByteReader in(head);
  const std::uint64_t entry_count = in.u32(4, BE);
  if (entry_count < 1 || entry_count > kMaxFieldValue || table_end(entry_count) > size) return false;
  const auto name = as_chars(in.slice(kHeaderSize, kNameSize));
  const auto nul = name.find('\0');
  if (nul == 0 || nul == std::string_view::npos) return false;
  for (const char c : name.substr(0, nul))
    if (!printable_ascii(c)) return false;
  // One entry in the head with its data after the table and inside the file. Not necessarily the
  // first: a broken first entry is that member's error, and must not make the archive look like
  // something else (an FPK can look like a MOT; issue 35).
  const std::uint64_t in_head = std::min<std::uint64_t>(entry_count, (head.size() - kHeaderSize) / kEntrySize);
  for (std::uint64_t index = 0; index < in_head; ++index) {
    const std::uint64_t entry_at = kHeaderSize + kEntrySize * index;
    const std::uint64_t offset = in.u32(entry_at + kOffsetField, BE);
    const std::uint64_t stored_size = in.u32(entry_at + kStoredSizeField, BE);
    if (offset >= table_end(entry_count) && offset <= size && stored_size <= size - offset) return true;
  }
  return false;
}

Result<MemberList> list_fpk(const ContainerInput& input, const ContainerLimits& limits) {
  return catch_parse_failure<MemberList>([&] { return read_fpk(input, limits); });
}

std::string restore_name(std::string_view stored_name) {
  if (stored_name.size() != kTruncatedNameLength) return std::string(stored_name);
  // GNTool's GNT4FileNames.fix: the stored tail of each long top-level folder (containers.md 1).
  static constexpr std::pair<std::string_view, std::string_view> kPrefixes[] = {
      {"aki/", "maki/"}, {"ame/", "game/"}, {"g/", "stg/"},    {"hr/", "chr/"},   {"ki/", "maki/"},
      {"me/", "game/"},  {"ru/", "furu/"},  {"te/", "unite/"}, {"tg/", "stg/"},   {"uro/", "kuro/"},
  };
  for (const auto& [tail, folder] : kPrefixes)
    if (stored_name.starts_with(tail)) return std::string(folder) + std::string(stored_name.substr(tail.size()));
  if (stored_name.ends_with("4201.txg")) return "vs/" + std::string(stored_name);
  return std::string(stored_name);
}

ContainerModule container_module() {
  return ContainerModule{"fpk",
                         "Eighting FPK archive (GNT4 GameCube layout: 16-byte names, big-endian; PRS members)",
                         &detect_fpk, &list_fpk};
}

}  // namespace animdex::fpk
