#include "formats/nitro/nitro_file.h"

#include <fmt/format.h>

namespace animdex::nitro {

void fail_outside(std::uint64_t start, std::uint64_t length, std::uint64_t end, std::uint64_t field_at,
                  std::string_view what, std::string_view block) {
  fail_at(field_at, fmt::format("{} ({} bytes at {:#x}) inside the {} ending at {:#x}", what, length, start, block, end),
          fmt::format("end {:#x}", start + length));
}

namespace {

// A block's size: at least its 8-byte header, and inside the file. `bca0_words`: see HeaderRules.
void check_block_size(const ByteReader& in, std::uint64_t start, bool bca0_words) {
  const std::uint64_t size = in.u32(start + 4, LE);
  if (size >= 8 && in.contains(start, size)) return;
  if (bca0_words) fail_at(start + 4, fmt::format("block size within the file's {} bytes", in.size()), std::to_string(size));
  fail_at(start + 4, fmt::format("block size 8..{} (inside the file)", in.size() - start), std::to_string(size));
}

// The 16 bytes before the block table; returns the version.
std::uint16_t read_header_fields(const ByteReader& in, const HeaderRules& rules, std::vector<std::string>& warnings) {
  in.require(0, 0x10, "Nitro header (16 bytes)");
  if (in.ascii(0, 4) != rules.file_magic) fail_at(0, fmt::format("magic {}", rules.file_magic), in.ascii(0, 4));
  if (in.u16(4, LE) != 0xFEFF) fail_at(4, "byte-order mark FF FE", fmt::format("{:04X}", in.u16(4, BE)));
  const std::uint16_t version = in.u16(6, LE);
  if (version != rules.usual_version)
    warnings.push_back(fmt::format("Nitro version {} ({} in every known file)", version, rules.usual_version));
  const std::uint32_t declared_size = in.u32(8, LE);
  if (declared_size > in.size())
    fail_at(8, fmt::format("file size at most the real length {}", in.size()), std::to_string(declared_size));
  if (in.u16(0x0C, LE) != 0x10) fail_at(0x0C, "header size 16", std::to_string(in.u16(0x0C, LE)));
  return version;
}

}  // namespace

FileHeader read_file_header(const ByteReader& in, const HeaderRules& rules, std::vector<std::string>& warnings) {
  const std::uint16_t version = read_header_fields(in, rules, warnings);
  const std::uint16_t block_count = in.u16(0x0E, LE);
  if (block_count < 1) fail_at(0x0E, "at least one block", "0");
  in.require(0x10, 4ull * block_count, "block offset table");
  for (std::uint16_t b = 0; b < block_count; ++b) {
    const std::uint64_t start = in.u32(0x10 + 4ull * b, LE);
    if (!in.contains(start, 8))
      fail_at(0x10 + 4ull * b, fmt::format("block {} offset + 8 inside the file", b), fmt::format("{:#x}", start));
    if (!rules.first_block_only) check_block_size(in, start, false);
  }
  if (rules.first_block_only && block_count > 1)
    warnings.push_back(fmt::format("{} blocks; only the first ({}) is read", block_count, rules.block_magic));
  const std::uint64_t start = in.u32(0x10, LE);
  if (in.ascii(start, 4) != rules.block_magic)
    fail_at(start, fmt::format("block magic {}", rules.block_magic), in.ascii(start, 4));
  if (rules.first_block_only) check_block_size(in, start, true);
  return {version, {start, start + in.u32(start + 4, LE)}};
}

std::string read_name16(const ByteReader& in, std::uint64_t at) {
  std::string name = in.ascii(at, 16);
  if (const auto nul = name.find('\0'); nul != std::string::npos) name.resize(nul);
  for (char& c : name)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) c = '?';
  return name;
}

namespace {

// A dictionary's header (revision, entry count) at `at`; `what` is empty for BCA0's one dictionary.
std::string dictionary_text(std::string_view what, std::string_view text) {
  return what.empty() ? std::string(text) : fmt::format("{} {}", what, text);
}

// Checks the 8-byte header inside the block and the revision; returns the entry count.
std::uint8_t read_dictionary_header(const ByteReader& in, std::uint64_t at, const Block& block, std::string_view what,
                                    std::uint64_t located_at, std::string_view block_name) {
  require_inside(at, 8, block.end, located_at, dictionary_text(what, "dictionary header"), block_name);
  if (in.u8(at) != 0) fail_at(at, dictionary_text(what, "dictionary revision 0"), std::to_string(in.u8(at)));
  return in.u8(at + 1);
}

// The entry header (data size, names offset) at `entry_at` inside the block; checks the data size.
std::uint16_t read_entry_header(const ByteReader& in, std::uint64_t at, std::uint64_t entry_at, const Block& block,
                                std::uint16_t unit_size, std::string_view what, std::string_view block_name,
                                std::string_view size_text) {
  require_inside(entry_at, 4, block.end, at + 6, dictionary_text(what, "dictionary entry header"), block_name);
  const std::uint16_t stored_unit = in.u16(entry_at, LE);
  if (stored_unit != unit_size) fail_at(entry_at, dictionary_text(what, size_text), std::to_string(stored_unit));
  return in.u16(entry_at + 2, LE);
}

std::vector<DictionaryEntry> dictionary_entries(const ByteReader& in, std::uint64_t entry_at, std::uint64_t names,
                                                std::uint16_t unit_size, std::uint8_t count) {
  std::vector<DictionaryEntry> entries;
  entries.reserve(count);
  for (std::uint8_t e = 0; e < count; ++e)
    entries.push_back({read_name16(in, names + 16ull * e), entry_at + 4 + unit_size * static_cast<std::uint64_t>(e)});
  return entries;
}

}  // namespace

std::vector<DictionaryEntry> read_dictionary(const ByteReader& in, std::uint64_t at, std::uint64_t end,
                                             std::uint16_t unit_size, std::size_t min_entries,
                                             std::string_view what, std::uint64_t located_at) {
  const Block block{0, end};
  const std::uint8_t count = read_dictionary_header(in, at, block, what, located_at, "block");
  if (count < min_entries)
    fail_at(at + 1, fmt::format("{} dictionary with at least {} entries", what, min_entries), std::to_string(count));
  // The note's layout exactly: tree, entry header, data, names, and the stored size.
  const std::uint16_t size = in.u16(at + 2, LE), entry_offset = in.u16(at + 6, LE);
  if (entry_offset != 8 + 4u * (count + 1u))
    fail_at(at + 6, fmt::format("{} dictionary entry header at {} (after the tree)", what, 8 + 4u * (count + 1u)),
            std::to_string(entry_offset));
  const std::uint16_t name_offset = read_entry_header(in, at, at + entry_offset, block, unit_size, what, "block",
                                                      fmt::format("dictionary data size {}", unit_size));
  if (name_offset != 4u + unit_size * count)
    fail_at(at + entry_offset + 2, fmt::format("{} dictionary names at {} (after the data)", what, 4u + unit_size * count),
            std::to_string(name_offset));
  const std::uint64_t expected_size = entry_offset + 4ull + (unit_size + 16ull) * count;
  if (size != expected_size)
    fail_at(at + 2, fmt::format("{} dictionary size {}", what, expected_size), std::to_string(size));
  require_inside(at, expected_size, end, at + 2, fmt::format("{} dictionary", what));
  return dictionary_entries(in, at + entry_offset, at + entry_offset + name_offset, unit_size, count);
}

std::vector<DictionaryEntry> read_bca0_dictionary(const ByteReader& in, const Block& jnt0) {
  constexpr std::string_view kBlock = "JNT0 block";
  const std::uint64_t at = jnt0.start + 8;
  const std::uint8_t count = read_dictionary_header(in, at, jnt0, "", jnt0.start, kBlock);
  if (count < 1) fail_at(at + 1, "at least one dictionary entry", "0");
  // Each part only inside the block (nsbca.md's rules), wherever its offset puts it.
  const std::uint16_t tree_offset = in.u16(at + 4, LE), entry_offset = in.u16(at + 6, LE);
  require_inside(at + tree_offset, 4ull * (count + 1), jnt0.end, at + 4, "dictionary tree", kBlock);
  const std::uint64_t entry_at = at + entry_offset;
  const std::uint16_t name_offset =
      read_entry_header(in, at, entry_at, jnt0, 4, "", kBlock, "dictionary data size 4 (JNT0)");
  require_inside(entry_at + 4, 4ull * count, jnt0.end, at + 6, "dictionary data", kBlock);
  require_inside(entry_at + name_offset, 16ull * count, jnt0.end, entry_at + 2, "dictionary names", kBlock);
  return dictionary_entries(in, entry_at, entry_at + name_offset, 4, count);
}

std::uint16_t read_animation_header(const ByteReader& in, std::uint64_t at, std::uint64_t end,
                                    std::string_view header, std::uint64_t field_at, std::string_view what) {
  require_inside(at, 6, end, field_at, fmt::format("{} header", what));
  const std::string found = in.ascii(at, 4);
  if (found != header) {
    const auto shown = [](std::string_view text) {
      std::string out;
      for (char c : text) out += fmt::format("{}{:02X}", out.empty() ? "" : " ", static_cast<unsigned char>(c));
      return out;
    };
    fail_at(at, fmt::format("{} header {}", what, shown(header)), shown(found));
  }
  const std::uint16_t frame_count = in.u16(at + 4, LE);
  if (frame_count < 1) fail_at(at + 4, "frame count >= 1", "0");
  return frame_count;
}

std::vector<AnimationEntry> read_animation_set(const ByteReader& in, const Block& block, std::string_view header) {
  std::vector<AnimationEntry> animations;
  for (const auto& entry : read_dictionary(in, block.start + 8, block.end, 4, 1, "animation set", block.start + 8)) {
    const std::uint64_t start = block.start + in.u32(entry.data, LE);
    const std::uint16_t frames = read_animation_header(in, start, block.end, header, entry.data,
                                                       fmt::format("animation '{}'", entry.name));
    animations.push_back({entry.name, start, frames});
  }
  return animations;
}

}  // namespace animdex::nitro
