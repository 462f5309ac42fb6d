#pragma once
// KH2 BAR archives (kh2-mset.md "BAR header", "BAR entry"): little-endian, offsets relative to
// the BAR's own start, so a nested BAR is read from a sub-span of its parent.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace animdex::kh2 {

inline constexpr std::size_t kBarHeaderSize = 0x10;
inline constexpr std::size_t kBarEntrySize = 0x10;

// BAR entry type codes used by the motion system (Bar.cs numbering after OpenKh PR #302).
enum EntryType : std::uint16_t {
  kTypeDummy = 0,
  kTypeMotion = 9,
  kTypeMotionTriggers = 16,
  kTypeAnb = 17,
  kTypeMotionset = 20,
};

// OpenKh's name for a type code, or "Unknown<N>".
std::string entry_type_name(std::uint16_t type);

struct BarEntry {
  std::uint16_t type = 0;
  std::uint16_t duplicate_flag = 0;  // entry+0x02; unreliable in real files (see NOTES.md)
  std::string name;                  // cut at the first NUL
  std::int32_t offset = 0;           // from the BAR's start
  std::int32_t size = 0;
  bool has_data() const { return size > 0; }
};

struct Bar {
  std::uint8_t version_byte = 1;   // byte 3; 0x01 in files
  std::uint32_t runtime_address = 0;  // u32@0x08; 0 in files
  std::int32_t set_type_field = 0;    // i32@0x0C; motion sets: low 2 bits 0 Default, 1 Player, 2 Raw
  std::vector<BarEntry> entries;
  std::vector<std::string> warnings;
};

// True when the bytes start with "BAR".
bool has_bar_magic(std::span<const std::byte> bytes);

// Reads the header and entry table; checks every entry with data lies inside `bytes`
// (after the entry table). Does not look into the payloads.
Result<Bar> parse_bar(std::span<const std::byte> bytes);

// The payload of an entry (empty for entries without data). `bar` must come from parse_bar(bytes).
std::span<const std::byte> entry_payload(std::span<const std::byte> bytes, const BarEntry& entry);

// An entry to write: either its own payload or the data of an earlier entry (shared data).
struct BarWriteEntry {
  std::uint16_t type = 0;
  std::uint16_t duplicate_flag = 0;
  std::string name;                  // up to 4 characters
  std::vector<std::byte> payload;    // ignored when shares_with >= 0
  int shares_with = -1;              // index of an earlier entry whose data this one reuses
};

// OpenKh's layout: payloads in entry order, each aligned for its type (NOTES.md), no padding
// after the last. Reproduces OpenKh-written BARs byte for byte.
std::vector<std::byte> write_bar(const std::vector<BarWriteEntry>& entries, std::int32_t set_type_field = 0);

}  // namespace animdex::kh2
