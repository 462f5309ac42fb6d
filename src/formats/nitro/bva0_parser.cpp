#include "formats/nitro/bva0_parser.h"

#include <fmt/format.h>

#include "core/byte_reader.h"
#include "core/parse_budget.h"
#include "formats/nitro/nitro_file.h"

namespace animdex::nitro {

namespace {

using namespace std::string_view_literals;

VisibilityAnimation read_animation(const ByteReader& in, const Block& block, const AnimationEntry& entry,
                                   std::vector<std::string>& warnings) {
  VisibilityAnimation animation{entry.name, entry.frame_count, 0, {}};
  const std::uint64_t at = entry.start;
  require_inside(at, 12, block.end, at, fmt::format("animation '{}' header", entry.name));
  animation.node_count = in.u16(at + 6, LE);
  if (animation.node_count < 1) fail_at(at + 6, "node count >= 1", "0");
  if (animation.node_count > 255)  // a model's numNode is a byte
    warnings.push_back(fmt::format("{}: {} nodes, more than any model has (255)", entry.name, animation.node_count));
  const std::uint64_t bits = std::uint64_t{animation.frame_count} * animation.node_count;
  const std::uint64_t word_count = (bits + 31) / 32;
  require_inside(at + 12, 4 * word_count, block.end, at + 6,
                 fmt::format("visibility bits of {} frames x {} nodes", animation.frame_count, animation.node_count));
  if (const std::uint16_t size = in.u16(at + 8, LE); size != 12 + 4 * word_count)
    warnings.push_back(fmt::format("{}: size field {} (12 + 4 x {} words expected)", entry.name, size, word_count));
  charge_parse_memory(word_count, 4, at + 6, "visibility words");
  animation.words.reserve(word_count);
  for (std::uint64_t w = 0; w < word_count; ++w) animation.words.push_back(in.u32(at + 12 + 4 * w, LE));
  return animation;
}

}  // namespace

Result<Bva0File> parse_bva0(std::span<const std::byte> bytes) {
  return catch_parse_failure<Bva0File>([&] {
    const ByteReader in(bytes);
    Bva0File file;
    const Block block = read_first_block(in, "BVA0", "VIS0", 1, file.warnings);
    file.version = in.u16(6, LE);
    for (const auto& entry : read_animation_set(in, block, "V\0AV"sv))
      file.animations.push_back(read_animation(in, block, entry, file.warnings));
    return file;
  });
}

}  // namespace animdex::nitro
