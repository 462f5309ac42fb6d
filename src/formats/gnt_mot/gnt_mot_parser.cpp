#include "formats/gnt_mot/gnt_mot_parser.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

#include "core/byte_reader.h"
#include "core/parse_budget.h"
#include "model/animation.h"

namespace animdex::gnt_mot {

namespace {

std::string hex(std::uint64_t value) { return fmt::format("0x{:X}", value); }

// Bytes one GNTA may use: from its offset to the next GNTA in file order (or the end).
struct Extent {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t size() const { return end - begin; }
};

std::vector<std::byte> copy_bytes(const ByteReader& in, std::uint64_t from, std::uint64_t to) {
  auto span = in.slice(from, to - from);
  return {span.begin(), span.end()};
}

void require_zero_word(const ByteReader& in, std::uint64_t at, const char* what) {
  const auto value = in.u32be(at);
  if (value != 0) fail_at(at, fmt::format("{} to be zero", what), hex(value));
}

// Times are seconds (frame / 60): finite, and small enough that the frame number fits easily.
float read_time(const ByteReader& in, std::uint64_t at, std::string_view what) {
  const float seconds = in.finite_f32(at, BE, what);
  if (std::fabs(seconds) > kMaxSeconds)
    fail_at(at, fmt::format("{} within +-{:g} seconds", what, kMaxSeconds), fmt::format("{}", seconds));
  return seconds;
}

BoneAnimation parse_bone(const ByteReader& in, const Extent& gnta, std::uint64_t header_at,
                         std::uint64_t data_start) {
  BoneAnimation bone;
  bone.flags1 = in.u16be(header_at + 0x00);
  bone.track_flags = in.u16be(header_at + 0x02);
  bone.bone_id = in.u16be(header_at + 0x04);
  const std::uint64_t key_count = in.u16be(header_at + 0x06);
  bone.total_time = read_time(in, header_at + 0x08, "the bone's total time");
  require_zero_word(in, header_at + 0x0C, "bone header word 0x0C");
  bone.time_offset = in.u32be(header_at + 0x10);
  bone.coordinates_offset = in.u32be(header_at + 0x14);
  require_zero_word(in, header_at + 0x18, "bone header word 0x18");
  require_zero_word(in, header_at + 0x1C, "bone header word 0x1C");

  const auto encoding = encoding_from_flags(bone.flags1);
  if (!encoding)
    fail_at(header_at, "flags1 0x0200 together with 0x0002 (16-bit) or 0x0004 (f32) coordinates",
            hex(bone.flags1));

  // Time values: K x f32, inside this GNTA's data area (after the bone headers).
  const std::uint64_t times_at = gnta.begin + bone.time_offset;
  const std::uint64_t times_end = times_at + 4 * key_count;
  if (times_at < data_start || times_end > gnta.end)
    fail_at(header_at + 0x10,
            fmt::format("time values ({} keys) inside the GNTA data area {}..{}", key_count, hex(data_start),
                        hex(gnta.end)),
            fmt::format("time offset {} (absolute {})", hex(bone.time_offset), hex(times_at)));
  // Each key becomes a time, four coordinate words and a model key: charged before any is held.
  charge_parse_memory(key_count, model::kBytesPerKey + 4 + 16, header_at + 0x06, "key counts");
  bone.key_times.reserve(key_count);
  for (std::uint64_t k = 0; k < key_count; ++k) {
    const float time = read_time(in, times_at + 4 * k, "a key time");
    // Keys are in time order (GNTool writes them so; the model's rule).
    if (k > 0 && time < bone.key_times.back())
      fail_at(times_at + 4 * k, fmt::format("a key time at or after the previous key's {}", bone.key_times.back()),
              fmt::format("{}", time));
    bone.key_times.push_back(time);
  }

  const std::uint64_t times_padded = std::min(align16(times_end), gnta.end);
  bone.junk_after_times = copy_bytes(in, times_end, times_padded);
  if (*encoding == CoordinateEncoding::none) return bone;

  // Coordinates must follow the padded times directly (GNTool: "Second animation values do not follow first").
  const std::uint64_t expected_coordinates = align16(bone.time_offset + 4 * key_count);
  if (bone.coordinates_offset != expected_coordinates)
    fail_at(header_at + 0x14, fmt::format("coordinates offset {} (right after the padded key times)",
                                          hex(expected_coordinates)),
            hex(bone.coordinates_offset));
  const std::uint64_t bytes_per_key = *encoding == CoordinateEncoding::bf16 ? 8 : 16;
  const std::uint64_t coords_at = gnta.begin + bone.coordinates_offset;
  const std::uint64_t coords_end = coords_at + bytes_per_key * key_count;
  if (coords_end > gnta.end)
    fail_at(header_at + 0x14,
            fmt::format("{} coordinate bytes ({} keys) inside the GNTA ending at {}", bytes_per_key * key_count,
                        key_count, hex(gnta.end)),
            fmt::format("a block ending at {}", hex(coords_end)));
  bone.coordinate_words.reserve(key_count);
  for (std::uint64_t k = 0; k < key_count; ++k) {
    std::array<std::uint32_t, 4> words{};
    for (std::uint64_t c = 0; c < 4; ++c) {
      const std::uint64_t at = coords_at + k * bytes_per_key;
      const std::uint64_t word_at = at + (*encoding == CoordinateEncoding::bf16 ? 2 * c : 4 * c);
      words[c] = *encoding == CoordinateEncoding::bf16 ? in.u16be(word_at) : in.u32be(word_at);
      // A NaN or infinite coordinate has no SQL value and no meaning in a pose.
      if (!std::isfinite(decode_coordinate(words[c], *encoding)))
        fail_at(word_at, "a finite coordinate", fmt::format("{} (word {})", decode_coordinate(words[c], *encoding), hex(words[c])));
    }
    bone.coordinate_words.push_back(words);
  }
  bone.junk_after_coordinates = copy_bytes(in, coords_end, std::min(align16(coords_end), gnta.end));
  return bone;
}

GntAnimation parse_gnta(const ByteReader& in, std::uint32_t animation_id, const Extent& gnta) {
  if (gnta.size() < kGntaHeaderSize)
    fail_at(gnta.begin, "a 16-byte GNTA header", fmt::format("{} bytes before the next animation", gnta.size()));
  GntAnimation animation;
  animation.animation_id = animation_id;
  animation.file_offset = static_cast<std::uint32_t>(gnta.begin);
  animation.header_word0 = in.u16be(gnta.begin);
  const std::uint64_t bone_count = in.u16be(gnta.begin + 2);
  const auto header_size = in.u32be(gnta.begin + 4);
  if (header_size != kGntaHeaderSize) fail_at(gnta.begin + 4, "GNTA header size 0x10", hex(header_size));
  animation.play_speed = in.finite_f32(gnta.begin + 8, BE, "the play speed");
  animation.end_time = read_time(in, gnta.begin + 12, "the end time");

  const std::uint64_t data_start = gnta.begin + kGntaHeaderSize + kBoneHeaderSize * bone_count;
  if (data_start > gnta.end)
    fail_at(gnta.begin + 2,
            fmt::format("{} bone headers (0x20 bytes each) inside the GNTA ending at {}", bone_count, hex(gnta.end)),
            fmt::format("headers ending at {}", hex(data_start)));
  animation.bones.reserve(bone_count);
  for (std::uint64_t i = 0; i < bone_count; ++i)
    animation.bones.push_back(parse_bone(in, gnta, gnta.begin + kGntaHeaderSize + kBoneHeaderSize * i, data_start));
  return animation;
}

MotFile parse_checked(std::span<const std::byte> bytes) {
  const ByteReader in(bytes);
  const std::uint64_t size = bytes.size();
  if (size < kMotHeaderSize) fail_at(0, "a 16-byte MOT header", fmt::format("a {}-byte file", size));
  require_zero_word(in, 0x00, "MOT header word 0x00");

  MotFile mot;
  mot.slot_count = in.u32be(0x04);
  if (mot.slot_count == 0) fail_at(0x04, "at least one animation slot", "0");
  const auto header_size = in.u32be(0x08);
  if (header_size != kMotHeaderSize) fail_at(0x08, "MOT header size 0x10", hex(header_size));
  mot.declared_size = in.u32be(0x0C);
  if (mot.declared_size != size)
    fail_at(0x0C, fmt::format("the file size {} ({} bytes)", hex(size), size), hex(mot.declared_size));
  const std::uint64_t table_end = kMotHeaderSize + 4ULL * mot.slot_count;
  if (table_end > size)
    fail_at(0x04, fmt::format("a slot table of {} entries inside the {}-byte file", mot.slot_count, size),
            fmt::format("a table ending at {}", hex(table_end)));
  const std::uint64_t first_data = align16(table_end);
  mot.table_padding = copy_bytes(in, table_end, std::min(first_data, size));

  // Slot offsets: past the table, inside the file, 16-aligned, each used once.
  std::map<std::uint64_t, std::uint32_t> id_by_offset;
  for (std::uint32_t slot = 0; slot < mot.slot_count; ++slot) {
    const std::uint64_t entry_at = kMotHeaderSize + 4ULL * slot;
    const std::uint64_t offset = in.u32be(entry_at);
    if (offset == 0) continue;
    if (offset < first_data || offset >= size || offset % 16 != 0)
      fail_at(entry_at,
              fmt::format("slot {} offset 16-aligned, at or after {} and before the end {}", slot, hex(first_data),
                          hex(size)),
              hex(offset));
    const auto [existing, inserted] = id_by_offset.emplace(offset, slot);
    if (!inserted)
      fail_at(entry_at, fmt::format("a distinct offset for slot {}", slot),
              fmt::format("{}, already used by slot {}", hex(offset), existing->second));
  }

  std::vector<GntAnimation> animations;
  animations.reserve(id_by_offset.size());
  for (auto it = id_by_offset.begin(); it != id_by_offset.end(); ++it) {
    const auto next = std::next(it);
    const Extent extent{it->first, next == id_by_offset.end() ? size : next->first};
    animations.push_back(parse_gnta(in, it->second, extent));
  }
  std::sort(animations.begin(), animations.end(),
            [](const GntAnimation& a, const GntAnimation& b) { return a.animation_id < b.animation_id; });
  mot.animations = std::move(animations);
  return mot;
}

}  // namespace

Result<MotFile> parse_mot(std::span<const std::byte> bytes) {
  return catch_parse_failure<MotFile>([&] { return parse_checked(bytes); });
}

}  // namespace animdex::gnt_mot
