#include "formats/nitro/btp0_parser.h"

#include <fmt/format.h>

#include "core/byte_reader.h"
#include "core/parse_budget.h"
#include "formats/nitro/nitro_file.h"
#include "formats/nitro/nitro_sampled.h"
#include "model/animation.h"

namespace animdex::nitro {

namespace {

using namespace std::string_view_literals;

struct Reader {
  const ByteReader& in;
  const Block& block;
  Btp0File& file;
  SampleBudget budget;  // keys, which materials may share

  // `count` 16-byte names at the offset stored at `offset_at` (from the animation's first byte).
  std::vector<std::string> read_names(std::uint64_t animation_at, std::uint64_t offset_at, std::size_t count,
                                      const std::string& what) {
    const std::uint64_t start = animation_at + in.u16(offset_at, LE);
    require_inside(start, 16 * count, block.end, offset_at, what);
    std::vector<std::string> names;
    names.reserve(count);
    for (std::size_t n = 0; n < count; ++n) names.push_back(read_name16(in, start + 16 * n));
    return names;
  }

  PatternKey read_key(std::uint64_t at, const TexPatternAnimation& animation, bool no_palette) {
    const PatternKey key{in.u16(at, LE), in.u8(at + 2), in.u8(at + 3)};
    if (key.texture >= animation.textures.size())
      fail_at(at + 2, fmt::format("texture index below numTex {}", animation.textures.size()),
              std::to_string(key.texture));
    // NOPLTT: the material takes no palette, so the index is not one (a file may have none).
    if (!no_palette && key.palette >= animation.palettes.size() && key.palette != kKeepPalette)
      fail_at(at + 3,
              fmt::format("palette index below numPltt {} (or 255: keep the palette)", animation.palettes.size()),
              std::to_string(key.palette));
    return key;
  }

  void check_frames(const PatternMaterial& material, std::uint64_t keys_at, const TexPatternAnimation& animation) {
    for (std::size_t k = 1; k < material.keys.size(); ++k)
      if (material.keys[k].frame <= material.keys[k - 1].frame)
        fail_at(keys_at + 4 * k, fmt::format("key frame after the previous key's {}", material.keys[k - 1].frame),
                std::to_string(material.keys[k].frame));
    const std::string what = fmt::format("{}: material '{}'", animation.name, material.name);
    if (material.keys.front().frame > 0)
      file.warnings.push_back(fmt::format("{}: first key at frame {} (frame 0 in every known file; key 0 shows "
                                          "before it)", what, material.keys.front().frame));
    if (material.keys.back().frame >= animation.frame_count)
      file.warnings.push_back(fmt::format("{}: key at frame {}, past the last frame {}", what,
                                          material.keys.back().frame, animation.frame_count - 1));
  }

  PatternMaterial read_material(const DictionaryEntry& entry, std::uint64_t animation_at,
                                const TexPatternAnimation& animation) {
    PatternMaterial material{entry.name, in.u16(entry.data + 2, LE), in.u16(entry.data + 4, LE), {}};
    const std::uint16_t key_count = in.u16(entry.data, LE);
    if (key_count < 1) fail_at(entry.data, "at least one key (numFV)", "0");
    const std::uint64_t keys_at = animation_at + in.u16(entry.data + 6, LE);
    require_inside(keys_at, 4ull * key_count, block.end, entry.data + 6,
                   fmt::format("keys of material '{}'", entry.name));
    budget.charge(key_count, entry.data);
    // Each key is held and becomes a key of the model.
    charge_parse_memory(key_count, sizeof(PatternKey) + model::kBytesPerKey, entry.data, "pattern keys");
    material.keys.reserve(key_count);
    for (std::uint16_t k = 0; k < key_count; ++k) material.keys.push_back(read_key(keys_at + 4ull * k, animation, material.flag & 1));
    check_frames(material, keys_at, animation);
    return material;
  }

  TexPatternAnimation read_animation(const AnimationEntry& entry) {
    const std::uint64_t at = entry.start;
    require_inside(at, 12, block.end, at, fmt::format("animation '{}' header", entry.name));
    TexPatternAnimation animation{entry.name, entry.frame_count, {}, {}, {}};
    const auto materials = read_dictionary(in, at + 12, block.end, 8, 0, "material", at + 12);
    animation.textures = read_names(at, at + 8, in.u8(at + 6), "texture names (numTex x 16 bytes)");
    animation.palettes = read_names(at, at + 10, in.u8(at + 7), "palette names (numPltt x 16 bytes)");
    for (const auto& material : materials) animation.materials.push_back(read_material(material, at, animation));
    return animation;
  }
};

}  // namespace

Result<Btp0File> parse_btp0(std::span<const std::byte> bytes) {
  return catch_parse_failure<Btp0File>([&] {
    const ByteReader in(bytes);
    Btp0File file;
    const Block block = read_first_block(in, "BTP0", "PAT0", 1, file.warnings);
    file.version = in.u16(6, LE);
    Reader reader{in, block, file, SampleBudget(bytes.size())};
    for (const auto& entry : read_animation_set(in, block, "M\0PT"sv))
      file.animations.push_back(reader.read_animation(entry));
    return file;
  });
}

std::size_t pattern_key_at(const PatternMaterial& material, int frame) {
  std::size_t index = 0;
  for (std::size_t k = 0; k < material.keys.size() && material.keys[k].frame <= frame; ++k) index = k;
  return index;
}

}  // namespace animdex::nitro
