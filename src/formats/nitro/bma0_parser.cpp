#include "formats/nitro/bma0_parser.h"

#include <fmt/format.h>

#include "core/byte_reader.h"
#include "core/parse_budget.h"
#include "formats/nitro/nitro_file.h"
#include "formats/nitro/nitro_sampled.h"
#include "model/animation.h"

namespace animdex::nitro {

namespace {

using namespace std::string_view_literals;

constexpr std::array<const char*, 5> kPartNames = {"diffuse", "ambient", "specular", "emission", "alpha"};

struct Reader {
  const ByteReader& in;
  const Block& block;
  Bma0File& file;
  SampleBudget budget;

  // The array the info word at `info_at` points to (its low 16 bits: offset from the animation's first byte).
  void read_array(ColorValue& value, std::size_t part, std::uint64_t animation_at, int frame_count,
                  std::uint64_t info_at, const std::string& what) {
    const Steps steps = checked_array_steps(value.info >> 30, (value.info >> 16) & 0x1FFF, frame_count, info_at, what,
                                            file.warnings);
    const std::uint64_t element = part == kAlpha ? 1 : 2, count = sample_count(frame_count, steps);
    const std::uint64_t start = animation_at + (value.info & 0xFFFF);
    require_inside(start, count * element, block.end, info_at, what + " array");
    budget.charge(count, info_at);
    // Each sample is held and becomes a key of the model.
    charge_parse_memory(count, sizeof(std::uint16_t) + model::kBytesPerKey, info_at, "material colour samples");
    value.samples.reserve(count);
    for (std::uint64_t s = 0; s < count; ++s)
      value.samples.push_back(part == kAlpha ? in.u8(start + s) : in.u16(start + 2 * s, LE));
    value.info &= ~0xFFFFu;
  }

  ColorMaterial read_material(const DictionaryEntry& entry, const AnimationEntry& animation) {
    ColorMaterial material{entry.name, {}};
    for (std::size_t part = 0; part < 5; ++part) {
      const std::uint64_t info_at = entry.data + 4 * part;
      const std::string what = fmt::format("{}: material '{}' {}", animation.name, entry.name, kPartNames[part]);
      ColorValue& value = material.values[part];
      value.info = in.u32(info_at, LE);
      check_step_code(value.info >> 30, info_at, what);
      if (!value.is_constant()) read_array(value, part, animation.start, animation.frame_count, info_at, what);
    }
    return material;
  }

  MatColorAnimation read_animation(const AnimationEntry& entry) {
    const std::uint64_t at = entry.start;
    require_inside(at, 8, block.end, at, fmt::format("animation '{}' header", entry.name));
    MatColorAnimation animation{entry.name, entry.frame_count, in.u16(at + 6, LE), {}};
    for (const auto& material : read_dictionary(in, at + 8, block.end, 20, 0, "material", at + 8))
      animation.materials.push_back(read_material(material, entry));
    return animation;
  }
};

// RGB555: R in bits 0-4, G in 5-9, B in 10-14.
std::array<std::int64_t, 3> channels_of(std::uint16_t rgb) {
  return {rgb & 0x1F, (rgb >> 5) & 0x1F, (rgb >> 10) & 0x1F};
}

}  // namespace

Result<Bma0File> parse_bma0(std::span<const std::byte> bytes) {
  return catch_parse_failure<Bma0File>([&] {
    const ByteReader in(bytes);
    Bma0File file;
    const Block block = read_first_block(in, "BMA0", "MAT0", 1, file.warnings);
    file.version = in.u16(6, LE);
    Reader reader{in, block, file, SampleBudget(bytes.size())};
    for (const auto& entry : read_animation_set(in, block, "M\0AM"sv))
      file.animations.push_back(reader.read_animation(entry));
    return file;
  });
}

std::array<std::int64_t, 3> rgb_at(const ColorValue& value, int frame) {
  if (value.is_constant()) return channels_of(value.constant());
  if (value.samples.empty()) return {0, 0, 0};
  const StepRead read = step_read(value.steps(), frame, value.samples.size());
  const auto first = channels_of(value.samples[read.first]), second = channels_of(value.samples[read.second]);
  return {blend(first[0], second[0], read), blend(first[1], second[1], read), blend(first[2], second[2], read)};
}

std::int64_t alpha_at(const ColorValue& value, int frame) {
  if (value.is_constant()) return value.constant();
  return sampled_at(std::span<const std::uint16_t>(value.samples), value.steps(), frame);
}

}  // namespace animdex::nitro
