#pragma once
// BMD0 (model set, `.nsbmd`; nitro-models-and-anims.md section 1): model names, node names, the
// node tree from the structure byte code (SBC), bind-pose records, material and shape names.
// Fixed-point values stay raw (/4096 to decode).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/rotation.h"

namespace animdex::nitro {

// Node flag bits (NNSG3dResNodeData.flag).
inline constexpr std::uint16_t kNodeTransZero = 1u << 0;
inline constexpr std::uint16_t kNodeRotZero = 1u << 1;
inline constexpr std::uint16_t kNodeScaleOne = 1u << 2;
inline constexpr std::uint16_t kNodePivotExists = 1u << 3;

struct NodeBindPose {
  enum class Rotation { identity, pivot, matrix };
  std::uint16_t flag = kNodeTransZero | kNodeRotZero | kNodeScaleOne;
  std::int16_t m00 = 0;                             // stored at +2 (used by the matrix form)
  std::array<std::int32_t, 3> translation{};        // fx32; 0 when TRANS_ZERO
  Rotation rotation = Rotation::identity;
  std::array<std::int16_t, 8> rotation_values{};    // pivot: A, B; matrix: m01..m22 (fx16)
  std::array<std::int32_t, 3> scale{4096, 4096, 4096}, inverse_scale{4096, 4096, 4096};  // fx32

  int pivot_index() const { return (flag >> 4) & 0xF; }
  Matrix3 rotation_matrix() const;  // DS row-major; identity when ROT_ZERO
};

struct ModelNode {
  std::string name;
  std::optional<int> parent;      // from its NODEDESC; empty for the root (parent == itself) or without one
  bool has_descriptor = false;    // a NODEDESC names it
  std::optional<bool> visible;    // default visibility from a NODE command, when there is one
  NodeBindPose bind;
};

struct Model {
  std::string name;
  std::uint8_t scaling_rule = 0, texture_matrix_mode = 0;
  std::int32_t position_scale = 4096;  // fx32: vertices only (joints are in model units)
  std::uint16_t vertex_count = 0, polygon_count = 0;
  std::vector<ModelNode> nodes;
  std::vector<std::string> materials;
  std::vector<std::string> shapes;
  std::vector<std::uint8_t> sbc;  // the structure byte code, up to and including RET
};

struct Bmd0File {
  std::uint16_t version = 2;
  std::vector<Model> models;
  std::vector<std::string> warnings;
};

Result<Bmd0File> parse_bmd0(std::span<const std::byte> bytes);

}  // namespace animdex::nitro
