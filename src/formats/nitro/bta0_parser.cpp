#include "formats/nitro/bta0_parser.h"

#include <fmt/format.h>

#include "core/byte_reader.h"
#include "core/parse_budget.h"
#include "formats/nitro/nitro_file.h"
#include "formats/nitro/nitro_sampled.h"
#include "model/animation.h"

namespace animdex::nitro {

namespace {

using namespace std::string_view_literals;

constexpr std::array<const char*, 5> kPartNames = {"scaleS", "scaleT", "rot", "transS", "transT"};

struct Reader {
  const ByteReader& in;
  const Block& block;
  Bta0File& file;
  SampleBudget budget;

  // The array of one value: `ex` (at ex_at) is its offset from the animation's first byte.
  void read_array(SrtValue& value, std::size_t part, std::uint64_t animation_at, int frame_count, std::uint64_t ex_at,
                  const std::string& what) {
    const std::uint64_t info_at = ex_at - 4;
    const Steps steps =
        checked_array_steps(value.info >> 30, value.info & 0xFFFF, frame_count, info_at, what, file.warnings);
    if (part == kRotation && value.fx16())
      fail_at(info_at, what + ": a rotation array of 4-byte (sin, cos) pairs (FX16 bit 28 clear)", "FX16 set");
    const bool fx16 = value.fx16() && part != kRotation;
    const std::uint64_t element = fx16 ? 2 : 4, count = sample_count(frame_count, steps);
    const std::uint64_t start = animation_at + in.u32(ex_at, LE);
    require_inside(start, count * element, block.end, ex_at, what + " array");
    budget.charge(count, ex_at);
    // Each sample is held and becomes (part of) a key of the model.
    charge_parse_memory(count, sizeof(std::int32_t) + model::kBytesPerKey, ex_at, "texture SRT samples");
    value.samples.reserve(count);
    for (std::uint64_t s = 0; s < count; ++s)
      value.samples.push_back(fx16 ? in.i16(start + 2 * s, LE) : in.i32(start + 4 * s, LE));
  }

  SrtMaterial read_material(const DictionaryEntry& entry, const AnimationEntry& animation) {
    SrtMaterial material{entry.name, {}};
    for (std::size_t part = 0; part < 5; ++part) {
      const std::uint64_t info_at = entry.data + 8 * part;
      const std::string what = fmt::format("{}: material '{}' {}", animation.name, entry.name, kPartNames[part]);
      SrtValue& value = material.values[part];
      value.info = in.u32(info_at, LE);
      check_step_code(value.info >> 30, info_at, what);
      if (value.is_constant()) value.constant = in.u32(info_at + 4, LE);
      else read_array(value, part, animation.start, animation.frame_count, info_at + 4, what);
    }
    return material;
  }

  TexSrtAnimation read_animation(const AnimationEntry& entry) {
    const std::uint64_t at = entry.start;
    require_inside(at, 8, block.end, at, fmt::format("animation '{}' header", entry.name));
    TexSrtAnimation animation{entry.name, entry.frame_count, in.u8(at + 6), in.u8(at + 7), {}};
    for (const auto& material : read_dictionary(in, at + 8, block.end, 40, 0, "material", at + 8))
      animation.materials.push_back(read_material(material, entry));
    return animation;
  }
};

}  // namespace

Result<Bta0File> parse_bta0(std::span<const std::byte> bytes) {
  return catch_parse_failure<Bta0File>([&] {
    const ByteReader in(bytes);
    Bta0File file;
    const Block block = read_first_block(in, "BTA0", "SRT0", 1, file.warnings);
    file.version = in.u16(6, LE);
    Reader reader{in, block, file, SampleBudget(bytes.size())};
    for (const auto& entry : read_animation_set(in, block, "M\0AT"sv))
      file.animations.push_back(reader.read_animation(entry));
    return file;
  });
}

double srt_scalar_at(const SrtValue& value, int frame) {
  if (value.is_constant()) return fx(static_cast<std::int32_t>(value.constant));
  return fx(sampled_at(std::span<const std::int32_t>(value.samples), value.steps(), frame));
}

std::array<double, 2> srt_sin_cos_at(const SrtValue& value, int frame) {
  const auto sin_of = [](std::uint32_t word) { return std::int64_t{static_cast<std::int16_t>(word & 0xFFFF)}; };
  const auto cos_of = [](std::uint32_t word) { return std::int64_t{static_cast<std::int16_t>(word >> 16)}; };
  if (value.is_constant()) return {fx(sin_of(value.constant)), fx(cos_of(value.constant))};
  if (value.samples.empty()) return {0, 0};
  const StepRead read = step_read(value.steps(), frame, value.samples.size());
  const auto first = static_cast<std::uint32_t>(value.samples[read.first]);
  const auto second = static_cast<std::uint32_t>(value.samples[read.second]);
  return {fx(blend(sin_of(first), sin_of(second), read)), fx(blend(cos_of(first), cos_of(second), read))};
}

}  // namespace animdex::nitro
