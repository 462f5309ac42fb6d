#pragma once
// KH2 models (.mdlx, kh2-mdlx.md): a BAR whose type-4 entry is the model. Only the skeleton is read
// (bone count, parents, bind pose); meshes, textures and the object definition are not.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"

namespace animdex::kh2 {

inline constexpr std::uint16_t kTypeModel = 4;
inline constexpr std::size_t kModelReservedBytes = 0x90;  // before the model header, inside the entry
inline constexpr std::size_t kModelHeaderSize = 0x20;
inline constexpr std::size_t kBoneRecordSize = 0x40;
inline constexpr std::int32_t kCharacterModel = 3;  // model type: 3 character (skeletal), 2 map, 4 shadow

// One 64-byte bone record as stored (kh2-mdlx.md "Bone record"). Its local transform is
// T * Rz * Ry * Rx * S in column-vector form: the X rotation applies first.
struct ModelBone {
  std::int32_t index = 0;            // +0x00 (equals the record's position in every real file)
  std::int32_t parent = -1;          // +0x04: the parent's position, -1 for a root
  std::int32_t flags = 0;            // +0x0C: bit 0 no_envelop, bit 1 not_joint (no skinned vertices)
  std::array<float, 3> scale{};      // +0x10
  float scale_w = 0;                 // +0x1C: not part of the transform (often a child's offset length)
  std::array<float, 3> rotation{};   // +0x20: Euler angles x, y, z in radians
  std::array<float, 3> translation{};  // +0x30: game units (about centimetres)
};

struct ModelSkeleton {
  std::string entry_name;             // the type-4 entry's tag (any text; never matched on)
  std::int32_t model_type = 0;        // header +0x00
  std::uint64_t header_offset = 0;    // absolute offset of the model header in the file
  std::uint64_t bone_table_offset = 0;  // absolute offset of the first bone record
  std::vector<ModelBone> bones;       // bone_count records; empty for a model that is not a character
  std::string skeleton_hash;          // XXH3-64 of the bone table's bytes: equal hashes, one skeleton
  std::vector<std::string> warnings;
};

// True when a BAR entry table visible in `head` lists a type-4 (model) entry.
bool lists_model_entry(std::span<const std::byte> head, std::uint64_t file_size);

// Reads the skeleton of the (first) type-4 entry of a BAR, with the note's validation rules as
// errors at the offending field: the entry and header inside the file, bone count >= 1 and the
// bone table inside the entry, each parent -1 or an earlier bone, every float finite.
Result<ModelSkeleton> parse_mdlx_skeleton(std::span<const std::byte> bytes);

// The rotation of Euler angles (radians, X applied first, then Y, then Z) as a unit quaternion
// (x, y, z, w): q = qz * qy * qx.
std::array<double, 4> quaternion_from_euler_xyz(const std::array<float, 3>& radians);

}  // namespace animdex::kh2
