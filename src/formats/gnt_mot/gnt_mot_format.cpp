#include "formats/gnt_mot/gnt_mot_format.h"

#include "core/byte_reader.h"
#include "formats/gnt_mot/gnt_mot_capabilities.h"
#include "formats/gnt_mot/gnt_mot_parser.h"

namespace animdex::gnt_mot {

bool detect_mot(std::span<const std::byte> head, std::uint64_t file_size) {
  const ByteReader in(head);
  if (file_size < kMotHeaderSize || !in.contains(0, kMotHeaderSize)) return false;
  const std::uint64_t slot_count = in.u32be(0x04);
  const std::uint64_t declared_size = in.u32be(0x0C);
  return in.u32be(0x00) == 0 && in.u32be(0x08) == kMotHeaderSize && slot_count >= 1 && slot_count <= 0xFFFF &&
         declared_size >= kMotHeaderSize + 4 * slot_count;
}

FormatModule format_module() {
  return FormatModule{
      .id = "gnt_mot",
      .description = "Naruto GNT .mot (MOT header, slot table, GNTA animations; big-endian)",
      .reference_game = "gnt4",
      .detect = &detect_mot,
      .parse = &parse_mot_model,
      .motion_ids_in_hex = true,
      .pose = &pose_bones,
      .curves = &curves_bones,
      .no_export = "a GNT motion has no skeleton in what animdex reads: its parents and bind pose live in the "
                   "character's HSD model (files/chr/<chr>/0000.dat), a format animdex does not read; "
                   "`animdex export FILE --bake RATE` writes its curves as CSV",
      .help = {.family = "GNT", .extensions = ".mot", .slot = "animation ID (decimal or 0x hex)", .frame = "1/60 s"},
  };
}

}  // namespace animdex::gnt_mot
