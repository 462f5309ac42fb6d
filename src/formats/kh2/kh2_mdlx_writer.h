#pragma once
// Writes a KH2 model file holding only a skeleton, laid out as kh2-mdlx.md describes (for the tests
// and the sample): a BAR with one model entry `p_ex` of 0x90 reserved bytes, the model header, then
// the bone table right after the header. No meshes, no textures.
#include <cstddef>
#include <vector>

#include "formats/kh2/kh2_mdlx.h"

namespace animdex::kh2 {

// Offsets of the written file: the model entry's data and, inside it, the header and the bones.
inline constexpr std::size_t kWrittenModelEntry = 0x20;  // after the BAR header and its one entry
inline constexpr std::size_t kWrittenModelHeader = kWrittenModelEntry + kModelReservedBytes;
inline constexpr std::size_t kWrittenBoneTable = kWrittenModelHeader + kModelHeaderSize;

// `bones[i].index` is written as stored; `model_type` 3 (character) unless a test says otherwise.
std::vector<std::byte> write_mdlx(const std::vector<ModelBone>& bones, std::int32_t model_type = kCharacterModel);

// `count` bones in a chain (bone i's parent is i - 1), each 10 units along x from its parent, turned
// by `twist` radians about z: a skeleton whose world positions are easy to state.
std::vector<ModelBone> chain_skeleton(int count, float twist = 0.0F);

}  // namespace animdex::kh2
