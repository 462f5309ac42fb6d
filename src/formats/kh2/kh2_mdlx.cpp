#include "formats/kh2/kh2_mdlx.h"

#include <cmath>
#include <fmt/format.h>

#include "core/byte_reader.h"
#include "core/content_hash.h"
#include "formats/kh2/kh2_bar.h"

namespace animdex::kh2 {

namespace {

const BarEntry* first_model_entry(const Bar& bar, std::vector<std::string>& warnings) {
  const BarEntry* found = nullptr;
  for (const auto& entry : bar.entries) {
    if (entry.type != kTypeModel) continue;
    if (found) {
      warnings.push_back(fmt::format("a second model entry '{}' is not read (the first, '{}', is)", entry.name,
                                     found->name));
      continue;
    }
    found = &entry;
  }
  return found;
}

std::array<float, 3> three_finite(const ByteReader& in, std::uint64_t at, std::string_view what) {
  return {in.finite_f32(at, LE, what), in.finite_f32(at + 4, LE, what), in.finite_f32(at + 8, LE, what)};
}

ModelBone read_bone(const ByteReader& in, std::uint64_t at, std::int32_t position, std::int32_t bone_count) {
  ModelBone bone;
  bone.index = in.i32(at, LE);
  bone.parent = in.i32(at + 4, LE);
  if (bone.parent < -1 || bone.parent >= bone_count)
    fail_at(at + 4, fmt::format("a parent of -1 or a bone 0..{}", bone_count - 1), std::to_string(bone.parent));
  // Parents come before their children in every real file; a later parent could close a loop.
  if (bone.parent >= position)
    fail_at(at + 4, fmt::format("a parent before bone {} (-1 or 0..{})", position, position - 1),
            std::to_string(bone.parent));
  bone.flags = in.i32(at + 0x0C, LE);
  bone.scale = three_finite(in, at + 0x10, "a finite bone scale");
  bone.scale_w = in.f32(at + 0x1C, LE);
  bone.rotation = three_finite(in, at + 0x20, "a finite bone rotation");
  bone.translation = three_finite(in, at + 0x30, "a finite bone translation");
  return bone;
}

ModelSkeleton read_skeleton(std::span<const std::byte> bytes) {
  auto bar = parse_bar(bytes);
  if (!bar) throw ParseFailure(bar.error());
  ModelSkeleton skeleton;
  skeleton.warnings = bar.value().warnings;
  const BarEntry* entry = first_model_entry(bar.value(), skeleton.warnings);
  if (!entry) fail_at(4, "a BAR with a model entry (type 4)", "none");
  const auto payload = entry_payload(bytes, *entry);
  const std::uint64_t entry_start = static_cast<std::uint64_t>(entry->offset);
  const ByteReader in(payload);
  skeleton.entry_name = entry->name;
  skeleton.header_offset = entry_start + kModelReservedBytes;
  if (!in.contains(kModelReservedBytes, kModelHeaderSize))
    fail_at(entry_start, fmt::format("a model entry of at least 0x{:X} bytes (reserved bytes and header)",
                                     kModelReservedBytes + kModelHeaderSize),
            fmt::format("{} bytes", payload.size()));
  const std::uint64_t header = kModelReservedBytes;
  skeleton.model_type = in.i32(header, LE);
  if (skeleton.model_type != kCharacterModel) {
    skeleton.warnings.push_back(fmt::format("model type {} is not a character (3): no skeleton read", skeleton.model_type));
    return skeleton;
  }
  const std::int32_t bone_count = in.u16(header + 0x10, LE);
  const std::uint64_t table = header + in.u32(header + 0x14, LE);
  skeleton.bone_table_offset = entry_start + table;
  if (bone_count < 1) fail_at(skeleton.header_offset + 0x10, "a bone count of at least 1", "0");
  const std::uint64_t table_size = kBoneRecordSize * static_cast<std::uint64_t>(bone_count);
  if (!in.contains(table, table_size))
    fail_at(skeleton.header_offset + 0x14,
            fmt::format("a bone table ({} bones of 64 bytes) inside the {}-byte model entry", bone_count, payload.size()),
            fmt::format("offset 0x{:X} from the header", table - header));
  for (std::int32_t b = 0; b < bone_count; ++b) {
    const std::uint64_t at = table + kBoneRecordSize * static_cast<std::uint64_t>(b);
    try {
      skeleton.bones.push_back(read_bone(in, at, b, bone_count));
    } catch (const ParseFailure& failure) {  // offsets in the entry -> offsets in the file
      ParseError error = failure.error();
      error.offset += entry_start;
      throw ParseFailure(std::move(error));
    }
    if (skeleton.bones.back().index != b)
      skeleton.warnings.push_back(fmt::format("bone {} at 0x{:X} stores the index {}", b, entry_start + at,
                                              skeleton.bones.back().index));
  }
  skeleton.skeleton_hash = hash_bytes(payload.subspan(table, table_size));
  return skeleton;
}

}  // namespace

bool lists_model_entry(std::span<const std::byte> head, std::uint64_t file_size) {
  if (!has_bar_magic(head)) return false;
  const ByteReader in(head);
  if (!in.contains(0, kBarHeaderSize)) return false;
  const std::int64_t count = in.i32(4, LE);
  if (count < 0 || kBarHeaderSize + kBarEntrySize * static_cast<std::uint64_t>(count) > file_size) return false;
  for (std::int64_t index = 0; index < count; ++index) {
    const std::uint64_t at = kBarHeaderSize + kBarEntrySize * static_cast<std::uint64_t>(index);
    if (!in.contains(at, kBarEntrySize)) return false;  // entries past the head are not looked at
    if (in.u16(at, LE) == kTypeModel) return true;
  }
  return false;
}

Result<ModelSkeleton> parse_mdlx_skeleton(std::span<const std::byte> bytes) {
  return catch_parse_failure<ModelSkeleton>([&] { return read_skeleton(bytes); });
}

std::array<double, 4> quaternion_from_euler_xyz(const std::array<float, 3>& radians) {
  const auto half = [](float angle) { return std::array<double, 2>{std::sin(angle / 2.0), std::cos(angle / 2.0)}; };
  const auto [sx, cx] = half(radians[0]);
  const auto [sy, cy] = half(radians[1]);
  const auto [sz, cz] = half(radians[2]);
  // qz * qy * qx, each an axis rotation (x, y, z, w).
  return {cz * cy * sx - sz * sy * cx, cz * sy * cx + sz * cy * sx, sz * cy * cx - cz * sy * sx,
          cz * cy * cx + sz * sy * sx};
}

}  // namespace animdex::kh2
