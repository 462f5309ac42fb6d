#include "containers/kh2_idx/kh2_idx_container.h"

#include <algorithm>
#include <fmt/format.h>
#include <string>

#include "containers/kh2_idx/kh2_hash.h"
#include "containers/kh2_idx/kh2_names.h"
#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::kh2_idx {

std::uint32_t block_field(const Kh2IdxEntry& entry) {
  std::uint32_t field = entry.descriptor & kBlockFieldMask;
  if (entry.compressed() && entry.size >= kBigCompressedSize) field |= 0x1000;  // section 4, B_LK120_RAW
  return field;
}

std::uint64_t stored_size(const Kh2IdxEntry& entry) {
  if (!entry.compressed()) return entry.size;
  return (static_cast<std::uint64_t>(block_field(entry)) + 1) * kBlockSize;
}

Kh2IdxEntry read_entry(std::span<const std::byte> idx, std::uint64_t index) {
  const ByteReader reader(idx);
  const std::uint64_t at = kCountSize + index * kEntrySize;
  return {reader.u32le(at), reader.u16le(at + 4), reader.u16le(at + 6), reader.u32le(at + 8), reader.u32le(at + 12)};
}

bool detect_kh2_idx(std::span<const std::byte> head, std::uint64_t size) {
  if (head.size() < kCountSize + kEntrySize) return false;
  const ByteReader reader(head);
  const std::uint64_t count = reader.u32le(0);
  if (count == 0 || kCountSize + kEntrySize * count != size) return false;
  const std::uint64_t visible = std::min<std::uint64_t>({count, (head.size() - kCountSize) / kEntrySize, 64});
  for (std::uint64_t index = 1; index < visible; ++index)
    if (read_entry(head, index).hash32 <= read_entry(head, index - 1).hash32) return false;
  return true;
}

namespace {

std::uint64_t entry_offset(std::uint64_t index) { return kCountSize + index * kEntrySize; }

// The IDX bytes, after the checks that make reading them safe (section 4: size == 4 + 16 * count).
std::vector<std::byte> read_idx(const ByteSource& table, const ContainerLimits& limits, std::uint64_t& count) {
  const std::uint64_t size = table.size();
  if (size < kCountSize) fail_at(0, "a 4-byte KH2.IDX entry count", fmt::format("a {}-byte file", size));
  if (size > limits.max_table_size)
    fail_at(0, fmt::format("an IDX of at most {} bytes", limits.max_table_size), fmt::format("{} bytes", size));
  std::vector<std::byte> idx = table.read_vector(0, size);
  count = ByteReader(idx).u32le(0);
  if (kCountSize + kEntrySize * count != size)
    fail_at(0, fmt::format("an entry count with 4 + 16 x count = the file size {}", size), fmt::format("{}", count));
  if (count > limits.max_members)
    fail_at(0, fmt::format("at most {} entries", limits.max_members), fmt::format("{}", count));
  return idx;
}

// Why an entry cannot be listed, or empty when it can.
std::string entry_problem(const Kh2IdxEntry& entry, std::uint64_t offset, std::uint64_t stored,
                          std::uint64_t data_size) {
  if (entry.compressed() && entry.streamed()) return "streamed and compressed at once (streamed entries are raw)";
  if (offset > data_size || stored > data_size - offset)
    return fmt::format("bytes [{:#x}, {:#x}) outside the {}-byte IMG", offset, offset + stored, data_size);
  return {};
}

Member to_member(const Kh2IdxEntry& entry, std::uint64_t offset, std::uint64_t stored) {
  Member member;
  member.stored_name = kh2_hash_name(entry.hash32, entry.hash16);
  const auto known = kh2_name_for(entry.hash32, entry.hash16);
  member.path = known ? std::string(*known) : member.stored_name;
  member.offset = offset;
  member.stored_size = stored;
  member.size = entry.size;
  member.compression = entry.compressed() ? &kh2_idx::kKh2Codec : nullptr;
  return member;
}

// One warning for the order (section 4: sorted by Hash32, which the game binary-searches).
void note_order(std::span<const std::byte> idx, std::uint64_t count, std::vector<std::string>& warnings) {
  std::uint64_t unsorted = 0, first = 0;
  for (std::uint64_t index = 1; index < count; ++index) {
    if (read_entry(idx, index).hash32 > read_entry(idx, index - 1).hash32) continue;
    if (unsorted++ == 0) first = index;
  }
  if (unsorted > 0)
    warnings.push_back(fmt::format(
        "entries not in strictly ascending Hash32 order: {} out of place, the first at IDX offset {:#x} (entry {})",
        unsorted, entry_offset(first), first));
}

MemberList list_entries(std::span<const std::byte> idx, std::uint64_t count, std::uint64_t data_size) {
  MemberList list;
  list.members.reserve(static_cast<std::size_t>(count));
  note_order(idx, count, list.warnings);
  for (std::uint64_t index = 0; index < count; ++index) {
    const Kh2IdxEntry entry = read_entry(idx, index);
    const std::uint64_t offset = static_cast<std::uint64_t>(entry.block) * kBlockSize;
    const std::uint64_t stored = stored_size(entry);
    if (const auto problem = entry_problem(entry, offset, stored, data_size); !problem.empty()) {
      list.warnings.push_back(fmt::format("entry {} ({}) at IDX offset {:#x} left out: {}", index,
                                          kh2_hash_name(entry.hash32, entry.hash16), entry_offset(index), problem));
      continue;
    }
    list.members.push_back(to_member(entry, offset, stored));
  }
  return list;
}

}  // namespace

Result<MemberList> list_kh2_idx(const ContainerInput& input, const ContainerLimits& limits) {
  return catch_parse_failure<MemberList>([&] {
    std::uint64_t count = 0;
    const std::vector<std::byte> idx = read_idx(input.table, limits, count);
    return list_entries(idx, count, input.data.size());
  });
}

ContainerModule container_module() {
  ContainerModule module;
  module.id = "kh2_idx";
  module.description = "Kingdom Hearts II (PS2) KH2.IDX / 000*.idx tables over KH2.IMG (KH2 compression)";
  module.detect = detect_kh2_idx;
  module.list = list_kh2_idx;
  module.companion_extension = ".img";
  module.companion_format = "kh2_img";
  module.required_extension = ".idx";
  return module;
}

}  // namespace animdex::kh2_idx
