#include "containers/nds/nds_container.h"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <vector>

#include "containers/nitro_fnt.h"
#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::nds {

namespace {

// Header fields (containers.md section 3 ".nds ROM (NitroFS)"; GBATEK "DS Cartridge Header").
constexpr std::uint64_t kFntOffsetField = 0x40, kFntSizeField = 0x44;
constexpr std::uint64_t kFatOffsetField = 0x48, kFatSizeField = 0x4C;
constexpr std::uint64_t kUsedRomSizeField = 0x80;
constexpr std::uint64_t kHeaderSizeField = 0x84;
constexpr std::uint64_t kLogoCrcField = 0x15C;
constexpr std::uint64_t kHeaderCrcField = 0x15E;
constexpr std::uint64_t kHeaderFieldsEnd = 0x160;  // what detection reads
constexpr std::uint64_t kMinFntSize = 8;  // the root directory entry
constexpr std::uint64_t kFatEntry = 8;    // u32 start, u32 end, absolute

ParseError error_at(std::uint64_t offset, std::string expected, std::string found) {
  return ParseError{offset, std::move(expected), std::move(found)};
}

// A table (FNT or FAT) given by the u32 offset at `offset_field` and the u32 size after it: after
// the header's 0x200 used bytes, at least `min_size` bytes, a multiple of `unit`, inside the ROM.
std::optional<ParseError> check_table(const ByteReader& head, std::uint64_t offset_field, std::string_view name,
                                      std::uint64_t min_size, std::uint64_t unit, std::uint64_t rom_size) {
  const std::uint64_t offset = head.u32le(offset_field), size = head.u32le(offset_field + 4);
  if (offset < kNdsHeaderUsed)
    return error_at(offset_field, fmt::format("the {} offset at or after the 0x200-byte header", name), fmt::format("{:#x}", offset));
  if (offset > rom_size)
    return error_at(offset_field, fmt::format("the {} offset inside the {}-byte ROM", name, rom_size), fmt::format("{:#x}", offset));
  if (size < min_size || size % unit != 0)
    return error_at(offset_field + 4,
                    unit == 1 ? fmt::format("the {} size of at least {} bytes", name, min_size)
                              : fmt::format("the {} size as a multiple of {}", name, unit),
                    std::to_string(size));
  if (size > rom_size - offset)
    return error_at(offset_field + 4, fmt::format("the {} to end inside the {}-byte ROM", name, rom_size),
                    fmt::format("{} bytes at {:#x}", size, offset));
  return std::nullopt;
}

// The rules detect and list share, so what detect claims lists without a header error.
std::optional<ParseError> check_header(std::span<const std::byte> head, std::uint64_t rom_size) {
  if (rom_size < kNdsHeaderUsed || head.size() < kHeaderFieldsEnd)
    return error_at(0, "an NDS header of 0x200 bytes", fmt::format("{} bytes", std::min<std::uint64_t>(rom_size, head.size())));
  const ByteReader in(head);
  if (in.u32le(kHeaderSizeField) != kNdsHeaderSize)
    return error_at(kHeaderSizeField, "header size 0x4000", fmt::format("{:#x}", in.u32le(kHeaderSizeField)));
  if (in.u16le(kLogoCrcField) != kNdsLogoCrc)
    return error_at(kLogoCrcField, "the Nintendo logo CRC 0xCF56", fmt::format("{:#06x}", in.u16le(kLogoCrcField)));
  if (auto error = check_table(in, kFntOffsetField, "FNT", kMinFntSize, 1, rom_size)) return error;
  return check_table(in, kFatOffsetField, "FAT", 0, kFatEntry, rom_size);
}

class NdsReader {
 public:
  NdsReader(const ContainerInput& input, const ContainerLimits& limits)
      : source_(input.table), data_(input.data), limits_(limits), rom_size_(input.table.size()) {}

  MemberList run() {
    const auto header = source_.read_vector(0, std::min(rom_size_, kNdsHeaderUsed));
    if (auto error = check_header(header, rom_size_)) throw ParseFailure(*error);
    const ByteReader in(header);
    warn_about_header(in);
    const std::uint64_t fat_at = in.u32le(kFatOffsetField), fat_size = in.u32le(kFatSizeField);
    const std::uint64_t fnt_at = in.u32le(kFntOffsetField), fnt_size = in.u32le(kFntSizeField);
    const std::uint64_t file_count = fat_size / kFatEntry;
    if (file_count > limits_.max_members)
      fail_at(kFatSizeField, fmt::format("at most {} files in the FAT", limits_.max_members), std::to_string(file_count));
    check_table_size(kFatSizeField, "FAT", fat_size);
    check_table_size(kFntSizeField, "FNT", fnt_size);
    const auto fat = source_.read_vector(fat_at, fat_size);
    const auto fnt = source_.read_vector(fnt_at, fnt_size);
    const auto names = nitro_fnt::walk_fnt(fnt, fnt_at, file_count, limits_);
    for (const auto& warning : names.warnings) list_.warnings.push_back("FNT: " + warning);
    if (const auto overlays = std::min<std::uint64_t>(names.root_first_file_id, file_count); overlays > 0)
      list_.warnings.push_back(fmt::format(
          "{} files below the root's first file ID {} (overlays, no names) are not listed", overlays, names.root_first_file_id));
    add_members(ByteReader(fat), fat_at, names);
    return std::move(list_);
  }

 private:
  void warn_about_header(const ByteReader& in) {
    const std::uint16_t crc = nds_crc16(in.slice(0, kHeaderCrcField));
    if (crc != in.u16le(kHeaderCrcField))
      list_.warnings.push_back(fmt::format("header CRC {:#06x} differs from the computed {:#06x}", in.u16le(kHeaderCrcField), crc));
    if (in.u32le(kUsedRomSizeField) > rom_size_)
      list_.warnings.push_back(fmt::format("the header's used ROM size {} is past the file's {} bytes (trimmed too far?)",
                                           in.u32le(kUsedRomSizeField), rom_size_));
  }

  void check_table_size(std::uint64_t field, std::string_view name, std::uint64_t size) const {
    if (size > limits_.max_table_size)
      fail_at(field, fmt::format("the {} within {} bytes (the table size cap)", name, limits_.max_table_size), std::to_string(size));
  }

  void add_members(const ByteReader& fat, std::uint64_t fat_at, const nitro_fnt::FntListing& names) {
    list_.members.reserve(names.files.size());
    for (const auto& file : names.files) {
      const std::uint64_t entry = kFatEntry * file.file_id;
      const std::uint64_t start = fat.u32le(entry), end = fat.u32le(entry + 4);
      if (start == 0 && end == 0) {
        list_.warnings.push_back(fmt::format("{}: FAT entry {} is unused (0/0); not listed", file.path, file.file_id));
        continue;
      }
      if (start > end)
        fail_at(fat_at + entry, fmt::format("a FAT start at most its end {:#x} ({})", end, file.path), fmt::format("{:#x}", start));
      // Cut off by a trimmed ROM: listed all the same, so it is one error row and the rest is read.
      if (end > rom_size_ || !data_.contains(start, end - start))
        list_.warnings.push_back(fmt::format("{}: its FAT end {:#x} is past a FAT end inside the {}-byte ROM (cut short?)",
                                             file.path, end, rom_size_));
      Member member;
      member.path = member.stored_name = file.path;
      member.offset = start;
      member.stored_size = member.size = end - start;
      member.may_be_compressed = true;
      list_.members.push_back(std::move(member));
    }
  }

  const ByteSource& source_;
  const ByteSource& data_;
  const ContainerLimits& limits_;
  std::uint64_t rom_size_;
  MemberList list_;
};

bool detect(std::span<const std::byte> head, std::uint64_t size) { return detect_nds(head, size); }

}  // namespace

std::uint16_t nds_crc16(std::span<const std::byte> bytes) {
  std::uint16_t crc = 0xFFFF;
  for (std::byte b : bytes) {
    crc ^= std::to_integer<std::uint16_t>(b);
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) ? static_cast<std::uint16_t>((crc >> 1) ^ 0xA001) : static_cast<std::uint16_t>(crc >> 1);
  }
  return crc;
}

bool detect_nds(std::span<const std::byte> head, std::uint64_t size) { return !check_header(head, size).has_value(); }

Result<MemberList> list_nds(const ContainerInput& input, const ContainerLimits& limits) {
  return catch_parse_failure<MemberList>([&] { return NdsReader(input, limits).run(); });
}

ContainerModule container_module() {
  ContainerModule module;
  module.id = "nds";
  module.description = "Nintendo DS ROM image (.nds): the NitroFS files the FNT names";
  module.detect = detect;
  module.list = list_nds;
  module.usual_extension = ".nds";
  module.why_not = check_header;
  return module;
}

}  // namespace animdex::nds
