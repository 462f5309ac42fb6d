#include "formats/nitro/nitro_file.h"

#include <fmt/format.h>

namespace animdex::nitro {

void require_inside(std::uint64_t start, std::uint64_t length, std::uint64_t end, std::uint64_t field_at,
                    std::string_view what) {
  if (start > end || length > end - start)
    fail_at(field_at, fmt::format("{} ({} bytes at {:#x}) inside the block ending at {:#x}", what, length, start, end),
            fmt::format("end {:#x}", start + length));
}

Block read_first_block(const ByteReader& in, std::string_view file_magic, std::string_view block_magic,
                       std::uint16_t usual_version, std::vector<std::string>& warnings) {
  in.require(0, 0x10, "Nitro header (16 bytes)");
  if (in.ascii(0, 4) != file_magic) fail_at(0, fmt::format("magic {}", file_magic), in.ascii(0, 4));
  if (in.u16(4, LE) != 0xFEFF) fail_at(4, "byte-order mark FF FE", fmt::format("{:04X}", in.u16(4, BE)));
  const std::uint16_t version = in.u16(6, LE);
  if (version != usual_version)
    warnings.push_back(fmt::format("Nitro version {} ({} in every known file)", version, usual_version));
  const std::uint32_t declared_size = in.u32(8, LE);
  if (declared_size > in.size())
    fail_at(8, fmt::format("file size at most the real length {}", in.size()), std::to_string(declared_size));
  if (in.u16(0x0C, LE) != 0x10) fail_at(0x0C, "header size 16", std::to_string(in.u16(0x0C, LE)));
  const std::uint16_t block_count = in.u16(0x0E, LE);
  if (block_count < 1) fail_at(0x0E, "at least one block", "0");
  in.require(0x10, 4ull * block_count, "block offset table");
  for (std::uint16_t b = 0; b < block_count; ++b) {
    const std::uint64_t start = in.u32(0x10 + 4ull * b, LE);
    if (!in.contains(start, 8))
      fail_at(0x10 + 4ull * b, fmt::format("block {} offset + 8 inside the file", b), fmt::format("{:#x}", start));
    const std::uint64_t size = in.u32(start + 4, LE);
    if (size < 8 || !in.contains(start, size))
      fail_at(start + 4, fmt::format("block size 8..{} (inside the file)", in.size() - start), std::to_string(size));
  }
  const std::uint64_t start = in.u32(0x10, LE);
  if (in.ascii(start, 4) != block_magic) fail_at(start, fmt::format("block magic {}", block_magic), in.ascii(start, 4));
  return {start, start + in.u32(start + 4, LE)};
}

std::string read_name16(const ByteReader& in, std::uint64_t at) {
  std::string name = in.ascii(at, 16);
  if (const auto nul = name.find('\0'); nul != std::string::npos) name.resize(nul);
  for (char& c : name)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) c = '?';
  return name;
}

std::vector<DictionaryEntry> read_dictionary(const ByteReader& in, std::uint64_t at, std::uint64_t end,
                                             std::uint16_t unit_size, std::size_t min_entries,
                                             std::string_view what, std::uint64_t located_at) {
  require_inside(at, 8, end, located_at, fmt::format("{} dictionary header", what));
  if (in.u8(at) != 0) fail_at(at, fmt::format("{} dictionary revision 0", what), std::to_string(in.u8(at)));
  const std::uint8_t count = in.u8(at + 1);
  if (count < min_entries)
    fail_at(at + 1, fmt::format("{} dictionary with at least {} entries", what, min_entries), std::to_string(count));
  const std::uint16_t size = in.u16(at + 2, LE), entry_offset = in.u16(at + 6, LE);
  if (entry_offset != 8 + 4u * (count + 1u))
    fail_at(at + 6, fmt::format("{} dictionary entry header at {} (after the tree)", what, 8 + 4u * (count + 1u)),
            std::to_string(entry_offset));
  require_inside(at + entry_offset, 4, end, at + 6, fmt::format("{} dictionary entry header", what));
  const std::uint16_t stored_unit = in.u16(at + entry_offset, LE), name_offset = in.u16(at + entry_offset + 2, LE);
  if (stored_unit != unit_size)
    fail_at(at + entry_offset, fmt::format("{} dictionary data size {}", what, unit_size), std::to_string(stored_unit));
  if (name_offset != 4u + unit_size * count)
    fail_at(at + entry_offset + 2, fmt::format("{} dictionary names at {} (after the data)", what, 4u + unit_size * count),
            std::to_string(name_offset));
  const std::uint64_t expected_size = entry_offset + 4ull + (unit_size + 16ull) * count;
  if (size != expected_size)
    fail_at(at + 2, fmt::format("{} dictionary size {}", what, expected_size), std::to_string(size));
  require_inside(at, expected_size, end, at + 2, fmt::format("{} dictionary", what));
  std::vector<DictionaryEntry> entries;
  entries.reserve(count);
  const std::uint64_t names = at + entry_offset + name_offset;
  for (std::uint8_t e = 0; e < count; ++e)
    entries.push_back({read_name16(in, names + 16ull * e), at + entry_offset + 4 + unit_size * static_cast<std::uint64_t>(e)});
  return entries;
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
