#include "containers/nds/nds_writer.h"

#include <stdexcept>

#include "containers/nitro_fnt.h"
#include "containers/nds/nds_container.h"
#include "core/byte_writer.h"

namespace animdex::nds {

namespace {

constexpr std::size_t kAlignment = 0x200;  // ndstool's and the retail ROMs' file alignment
constexpr std::byte kPad{0xFF};
constexpr std::uint32_t kArm9Ram = 0x02000000, kArm7Ram = 0x02380000, kOverlayRam = 0x02100000;
constexpr std::byte kBranchToSelf[4] = {std::byte{0xFE}, std::byte{0xFF}, std::byte{0xFF}, std::byte{0xEA}};  // ARM "b ."

void put_u32(std::vector<std::byte>& rom, std::size_t at, std::uint64_t value) {
  if (value > UINT32_MAX) throw std::length_error("an NDS ROM field holds at most 32 bits");
  for (int i = 0; i < 4; ++i) rom[at + i] = std::byte{static_cast<std::uint8_t>(value >> (8 * i))};
}

void put_u16(std::vector<std::byte>& rom, std::size_t at, std::uint16_t value) {
  rom[at] = std::byte{static_cast<std::uint8_t>(value)};
  rom[at + 1] = std::byte{static_cast<std::uint8_t>(value >> 8)};
}

void put_text(std::vector<std::byte>& rom, std::size_t at, std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) rom[at + i] = std::byte{static_cast<std::uint8_t>(text[i])};
}

// Appends `bytes` at the next 0x200 boundary (0xFF before it) and returns where they start.
std::size_t place(std::vector<std::byte>& rom, std::span<const std::byte> bytes) {
  rom.resize((rom.size() + kAlignment - 1) / kAlignment * kAlignment, kPad);
  const std::size_t at = rom.size();
  rom.insert(rom.end(), bytes.begin(), bytes.end());
  return at;
}

void check_options(const NdsOptions& options) {
  if (options.title.size() > 12) throw std::invalid_argument("an NDS title holds at most 12 bytes");
  if (options.game_code.size() != 4) throw std::invalid_argument("an NDS game code has 4 bytes");
  if (options.arm9_overlays.size() >= nitro_fnt::kFirstDirectoryId) throw std::invalid_argument("too many overlays");
}

// 32-byte entries: overlay ID, RAM address, RAM size, BSS size, static-init start/end, file ID, 0.
std::vector<std::byte> overlay_table(const NdsOptions& options) {
  ByteWriter table;
  for (std::size_t i = 0; i < options.arm9_overlays.size(); ++i) {
    for (std::uint64_t word : {std::uint64_t{i}, std::uint64_t{kOverlayRam}, std::uint64_t{options.arm9_overlays[i].size()},
                               std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{i}, std::uint64_t{0}})
      table.u32(static_cast<std::uint32_t>(word), LE);
  }
  return table.take();
}

std::uint8_t device_capacity(std::size_t rom_size) {
  std::uint8_t shift = 0;
  while ((std::size_t{128} * 1024 << shift) < rom_size) ++shift;
  return shift;
}

void write_header_fields(std::vector<std::byte>& rom, const NdsOptions& options) {
  put_text(rom, 0x00, options.title);
  put_text(rom, 0x0C, options.game_code);
  put_text(rom, 0x10, "00");
  put_u32(rom, 0x24, kArm9Ram);
  put_u32(rom, 0x28, kArm9Ram);
  put_u32(rom, 0x2C, sizeof kBranchToSelf);
  put_u32(rom, 0x34, kArm7Ram);
  put_u32(rom, 0x38, kArm7Ram);
  put_u32(rom, 0x3C, sizeof kBranchToSelf);
  put_u32(rom, 0x60, 0x00586000);  // ROM control settings ndstool writes
  put_u32(rom, 0x64, 0x001808F8);
  put_u16(rom, 0x6E, 0x051E);      // secure area transfer delay
  put_u32(rom, 0x84, kNdsHeaderSize);
  put_u16(rom, 0x15C, kNdsLogoCrc);
}

}  // namespace

std::vector<std::byte> build_nds(const std::vector<NdsFile>& files, const NdsOptions& options) {
  check_options(options);
  std::vector<std::string> paths;
  for (const auto& file : files) paths.push_back(file.path);
  const auto first_file_id = static_cast<std::uint16_t>(options.arm9_overlays.size());
  const auto fnt = nitro_fnt::build_fnt(paths, first_file_id);

  std::vector<std::byte> rom(kNdsHeaderSize, std::byte{0});
  write_header_fields(rom, options);
  put_u32(rom, 0x20, place(rom, kBranchToSelf));
  if (!options.arm9_overlays.empty()) {
    const auto table = overlay_table(options);
    put_u32(rom, 0x50, place(rom, table));
    put_u32(rom, 0x54, table.size());
  }
  put_u32(rom, 0x30, place(rom, kBranchToSelf));
  put_u32(rom, 0x40, place(rom, fnt.table));
  put_u32(rom, 0x44, fnt.table.size());
  const std::size_t file_count = options.arm9_overlays.size() + files.size();
  const std::size_t fat_at = place(rom, std::vector<std::byte>(8 * file_count, std::byte{0}));
  put_u32(rom, 0x48, fat_at);
  put_u32(rom, 0x4C, 8 * file_count);

  // Overlays take IDs 0..k-1, then the files in FNT order.
  std::size_t id = 0;
  auto add_file = [&](std::span<const std::byte> bytes) {
    const std::size_t at = place(rom, bytes);
    put_u32(rom, fat_at + 8 * id, at);
    put_u32(rom, fat_at + 8 * id + 4, at + bytes.size());
    ++id;
  };
  for (const auto& overlay : options.arm9_overlays) add_file(overlay);
  for (std::size_t index : fnt.file_order) add_file(files[index].bytes);

  put_u32(rom, 0x80, rom.size());
  rom[0x14] = std::byte{device_capacity(rom.size())};
  put_u16(rom, 0x15E, nds_crc16(std::span(rom).first(0x15E)));
  return rom;
}

std::vector<std::byte> build_nds(const std::vector<NdsFile>& files, std::string_view title, std::string_view game_code) {
  NdsOptions options;
  options.title = std::string(title);
  options.game_code = std::string(game_code);
  return build_nds(files, options);
}

}  // namespace animdex::nds
