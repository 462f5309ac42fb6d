#pragma once
// BVA0 (visibility animation, `.nsbva`; nitro-models-and-anims.md section 7): per animation a bit
// per (frame, node), 1 = visible. Bound by node index to every node of the model.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"

namespace animdex::nitro {

struct VisibilityAnimation {
  std::string name;
  std::uint16_t frame_count = 0;  // numFrame: frames 0..frame_count-1
  std::uint16_t node_count = 0;   // numNode
  std::vector<std::uint32_t> words;  // bit p = frame * node_count + node (word p >> 5, bit p & 31)

  bool visible(int frame, int node) const {
    const std::uint64_t bit = static_cast<std::uint64_t>(frame) * node_count + static_cast<std::uint64_t>(node);
    return (words[bit >> 5] >> (bit & 31)) & 1u;
  }
};

struct Bva0File {
  std::uint16_t version = 1;
  std::vector<VisibilityAnimation> animations;
  std::vector<std::string> warnings;
};

Result<Bva0File> parse_bva0(std::span<const std::byte> bytes);

}  // namespace animdex::nitro
