#include "formats/nitro/bva0_builder.h"

namespace animdex::nitro {

Bytes write_bva0(const Bva0File& file) {
  std::vector<std::pair<std::string, Bytes>> animations;
  for (const auto& animation : file.animations) {
    Bytes bytes;
    put_text(bytes, std::string_view("V\0AV", 4));
    put_u16(bytes, animation.frame_count);
    put_u16(bytes, animation.node_count);
    put_u16(bytes, static_cast<std::uint16_t>(12 + 4 * animation.words.size()));
    put_u16(bytes, 0);
    for (const auto word : animation.words) put_u32(bytes, word);
    animations.emplace_back(animation.name, std::move(bytes));
  }
  return animation_file_bytes("BVA0", "VIS0", animations);
}

VisibilityAnimation visibility_animation(const std::string& name, const std::vector<std::vector<bool>>& visible) {
  VisibilityAnimation animation;
  animation.name = name;
  animation.frame_count = static_cast<std::uint16_t>(visible.size());
  animation.node_count = static_cast<std::uint16_t>(visible.empty() ? 0 : visible[0].size());
  const std::size_t bits = visible.size() * animation.node_count;
  animation.words.assign((bits + 31) / 32, 0);
  for (std::size_t frame = 0; frame < visible.size(); ++frame)
    for (std::size_t node = 0; node < animation.node_count; ++node)
      if (visible[frame][node]) {
        const std::size_t bit = frame * animation.node_count + node;
        animation.words[bit >> 5] |= 1u << (bit & 31);
      }
  return animation;
}

}  // namespace animdex::nitro
