#include "formats/kh2/kh2_bar.h"

#include <fmt/format.h>

#include "core/byte_reader.h"
#include "core/parse_budget.h"
#include "core/byte_writer.h"

namespace animdex::kh2 {

namespace {

// What one BAR entry costs once parsed, resolved and turned into rows: the entry and its slot (about
// 200 bytes), its `mset_slots` row (15 columns, about 900) and its share of `mset_resolution` rows
// (about 300); measured as peak RSS over 20,000-slot sets (tests/reliability/process_check.py).
constexpr std::uint64_t kBytesPerEntry = 1536;

// OpenKh BarWriter alignment per type (kh2-mset.md "BAR entry").
std::size_t alignment_for(std::uint16_t type, std::span<const std::byte> payload) {
  switch (type) {
    case 4: case 9: case 17: case 20: case 24: case 25: case 28: case 29:  // Model, Motion, Anb, Motionset, Imgd...
      return 0x10;
    case 10: case 31: case 32: case 34: case 37:  // Tim2, Seb, Wd, IopVoice, MemoryCard
      return 0x40;
    case 7: case 36:  // ModelTexture, RawBitmap
      return 0x80;
    default:
      return has_bar_magic(payload) ? 0x80 : 4;
  }
}

}  // namespace

std::string entry_type_name(std::uint16_t type) {
  static constexpr std::string_view kNames[] = {
      "Dummy", "Binary", "List", "Bdx", "Model", "OCD", "OCC", "ModelTexture", "Dpx", "Motion", "Tim2", "OCH",
      "AreaDataSpawn", "AreaDataScript", "FogColor", "OCL", "MotionTriggers", "Anb", "Pax", "OWA", "Motionset",
      "BgObjPlacement", "Event", "ModelCollision", "Imgd", "Seqd", "Unknown26", "Unknown27", "Layout", "Imgz",
      "AnimationMap", "Seb", "Wd", "Unknown33", "IopVoice", "Sprd", "RawBitmap", "MemoryCard",
      "WrappedCollisionData", "Unknown39", "Unknown40", "Unknown41", "Minigame", "JimiData", "Progress", "Synthesis",
      "BarUnknown", "Vibration", "Vag"};
  if (type < std::size(kNames)) return std::string(kNames[type]);
  return fmt::format("Unknown{}", type);
}

bool has_bar_magic(std::span<const std::byte> bytes) {
  return bytes.size() >= 3 && bytes[0] == std::byte{'B'} && bytes[1] == std::byte{'A'} && bytes[2] == std::byte{'R'};
}

Result<Bar> parse_bar(std::span<const std::byte> bytes) {
  return catch_parse_failure<Bar>([&] {
    const ByteReader in(bytes);
    in.require(0, kBarHeaderSize, "BAR header (16 bytes)");
    if (!has_bar_magic(bytes)) fail_at(0, "magic \"BAR\"", in.ascii(0, 3));
    Bar bar;
    bar.version_byte = in.u8(3);
    const std::int32_t entry_count = in.i32(4, LE);
    bar.runtime_address = in.u32(8, LE);
    bar.set_type_field = in.i32(12, LE);
    if (entry_count < 0) fail_at(4, "entry count >= 0", std::to_string(entry_count));
    const std::uint64_t table_end = kBarHeaderSize + kBarEntrySize * static_cast<std::uint64_t>(entry_count);
    if (table_end > bytes.size())
      fail_at(4, fmt::format("{} entries (table ends at {:#x}) within {} bytes", entry_count, table_end, bytes.size()),
              std::to_string(entry_count));
    if (bar.version_byte != 1) bar.warnings.push_back(fmt::format("BAR byte 3 is {:#04x}, not 0x01", bar.version_byte));
    if (bar.runtime_address != 0)
      bar.warnings.push_back(fmt::format("BAR u32@0x08 is {:#x}, not 0 (a runtime address?)", bar.runtime_address));
    // An entry becomes a BAR entry, a slot, its mset_slots row and up to four mset_resolution rows.
    charge_parse_memory(static_cast<std::uint64_t>(entry_count), kBytesPerEntry, 4, "BAR entries");
    bar.entries.reserve(static_cast<std::size_t>(entry_count));
    for (std::int32_t index = 0; index < entry_count; ++index) {
      const std::uint64_t at = kBarHeaderSize + kBarEntrySize * static_cast<std::uint64_t>(index);
      BarEntry entry;
      entry.type = in.u16(at, LE);
      entry.duplicate_flag = in.u16(at + 2, LE);
      entry.name = in.ascii(at + 4, 4);
      if (const auto nul = entry.name.find('\0'); nul != std::string::npos) entry.name.resize(nul);
      for (char& c : entry.name)  // names are ASCII tags; keep the database text valid UTF-8
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) c = '?';
      entry.offset = in.i32(at + 8, LE);
      entry.size = in.i32(at + 12, LE);
      if (entry.size < 0) fail_at(at + 12, fmt::format("entry {} size >= 0", index), std::to_string(entry.size));
      if (entry.has_data()) {
        if (entry.offset < 0 || static_cast<std::uint64_t>(entry.offset) < table_end)
          fail_at(at + 8, fmt::format("entry {} data offset at or after the entry table end {:#x}", index, table_end),
                  fmt::format("{:#x}", entry.offset));
        if (!in.contains(static_cast<std::uint64_t>(entry.offset), static_cast<std::uint64_t>(entry.size)))
          fail_at(at + 8,
                  fmt::format("entry {} data ({} bytes at {:#x}) within the BAR's {} bytes", index, entry.size,
                              entry.offset, bytes.size()),
                  fmt::format("end {:#x}", static_cast<std::uint64_t>(entry.offset) + entry.size));
      }
      bar.entries.push_back(std::move(entry));
    }
    return bar;
  });
}

std::span<const std::byte> entry_payload(std::span<const std::byte> bytes, const BarEntry& entry) {
  if (!entry.has_data()) return {};
  return bytes.subspan(static_cast<std::size_t>(entry.offset), static_cast<std::size_t>(entry.size));
}

std::vector<std::byte> write_bar(const std::vector<BarWriteEntry>& entries, std::int32_t set_type_field) {
  ByteWriter out;
  out.u8('B');
  out.u8('A');
  out.u8('R');
  out.u8(1);
  out.u32(static_cast<std::uint32_t>(entries.size()), LE);
  out.u32(0, LE);
  out.u32(static_cast<std::uint32_t>(set_type_field), LE);
  const std::size_t table_at = out.size();
  out.zeros(kBarEntrySize * entries.size());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> placed(entries.size());  // offset, size
  for (std::size_t index = 0; index < entries.size(); ++index) {
    const auto& entry = entries[index];
    if (entry.shares_with >= 0 && static_cast<std::size_t>(entry.shares_with) < index) {
      placed[index] = placed[static_cast<std::size_t>(entry.shares_with)];
      continue;
    }
    const std::size_t align = alignment_for(entry.type, entry.payload);
    if (!entry.payload.empty() && out.size() % align != 0) out.zeros(align - out.size() % align);
    placed[index] = {static_cast<std::uint32_t>(out.size()), static_cast<std::uint32_t>(entry.payload.size())};
    out.append(entry.payload);
  }
  auto bytes = out.take();
  for (std::size_t index = 0; index < entries.size(); ++index) {
    ByteWriter row;
    row.u16(entries[index].type, LE);
    row.u16(entries[index].duplicate_flag, LE);
    for (std::size_t c = 0; c < 4; ++c) row.u8(c < entries[index].name.size() ? static_cast<std::uint8_t>(entries[index].name[c]) : 0);
    row.u32(placed[index].first, LE);
    row.u32(placed[index].second, LE);
    std::copy(row.bytes().begin(), row.bytes().end(), bytes.begin() + static_cast<std::ptrdiff_t>(table_at + kBarEntrySize * index));
  }
  return bytes;
}

}  // namespace animdex::kh2
