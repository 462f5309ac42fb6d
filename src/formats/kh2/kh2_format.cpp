#include "formats/kh2/kh2_format.h"

#include <cmath>

#include "core/byte_reader.h"
#include "core/text.h"
#include "formats/kh2/kh2_capabilities.h"
#include "formats/kh2/kh2_export.h"
#include "formats/kh2/kh2_mdlx.h"
#include "formats/kh2/kh2_model.h"

namespace animdex::kh2 {

namespace {

template <Result<KH2File> (*Parse)(std::span<const std::byte>)>
Result<model::AnimationFile> parse_container(std::span<const std::byte> bytes) {
  auto parsed = Parse(bytes);
  if (!parsed) return parsed.error();
  return to_model(parsed.value());
}

Result<model::AnimationFile> parse_bare_motion(std::span<const std::byte> bytes) {
  auto parsed = parse_motion(bytes);
  if (!parsed) return parsed.error();
  return to_model(parsed.value());
}

bool plausible_fps(float fps) { return std::isfinite(fps) && fps > 0 && fps <= 1000; }

}  // namespace

std::optional<BarKind> classify_bar(std::span<const std::byte> head, std::uint64_t file_size) {
  if (!has_bar_magic(head)) return std::nullopt;
  if (lists_model_entry(head, file_size)) return BarKind::model;
  const ByteReader in(head);
  if (!in.contains(0, kBarHeaderSize)) return BarKind::other;  // truncated: the parser says why
  const std::int64_t count = in.i32(4, LE);
  if (count < 0 || kBarHeaderSize + kBarEntrySize * static_cast<std::uint64_t>(count) > file_size)
    return BarKind::other;
  if (count == 0) return (in.i32(12, LE) & 3) == 1 || (in.i32(12, LE) & 3) == 2 ? BarKind::motion_set : BarKind::other;
  bool only_slots = true, only_anb_parts = true, has_motion = false;
  for (std::int64_t index = 0; index < count; ++index) {
    const std::uint64_t at = kBarHeaderSize + kBarEntrySize * static_cast<std::uint64_t>(index);
    if (!in.contains(at, kBarEntrySize)) break;  // entries past the head are not looked at
    const std::uint16_t type = in.u16(at, LE);
    const std::int32_t size = in.i32(at + 12, LE);
    has_motion |= type == kTypeMotion;
    only_anb_parts &= type == kTypeMotion || type == kTypeMotionTriggers;
    only_slots &= type == kTypeAnb || type == kTypeMotionset || size == 0;
  }
  if (has_motion && only_anb_parts) return BarKind::anb;
  return only_slots ? BarKind::motion_set : BarKind::other;
}

bool detect_motion_set(std::span<const std::byte> head, std::uint64_t size) {
  return classify_bar(head, size) == BarKind::motion_set;
}
bool detect_anb(std::span<const std::byte> head, std::uint64_t size) { return classify_bar(head, size) == BarKind::anb; }
bool detect_plain_bar(std::span<const std::byte> head, std::uint64_t size) {
  return classify_bar(head, size) == BarKind::other;
}

bool detect_bare_motion(std::span<const std::byte> head, std::uint64_t) {
  const ByteReader in(head);
  if (!in.contains(0, kMotionBase + kCommonHeaderSize + kInterpolatedHeaderSize)) return false;
  for (std::uint64_t at = 0; at < kMotionBase; at += 4)
    if (in.u32(at, LE) != 0) return false;
  const std::int32_t type = in.i32(kMotionBase, LE);
  const std::int32_t subtype = in.i32(kMotionBase + 4, LE);
  if (subtype != 0 && subtype != 1) return false;
  // A zero-filled file would pass the checks above; the frame rate rules it out.
  if (type == 1) return plausible_fps(in.f32(0xE8, LE));
  return type == 0 && plausible_fps(in.f32(0x128, LE));
}

namespace {

// KH2 keeps one motion set per object, named after it: obj/P_EX100.mset belongs to P_EX100 (Sora).
std::optional<std::string_view> object_of_motion_set(std::string_view file_name) { return object_of_file(file_name, "mset"); }

// kh2-mset.md, "Slot mapping": rel 0 = battle with weapon, 1 = battle without weapon, 2 = field
// without weapon, 3 = field with weapon; worded as the kh2-fallbacks query words them.
std::optional<std::string_view> slot_state_name(std::int64_t state) {
  switch (state) {
    case 0: return "battle, weapon";
    case 1: return "battle, no weapon";
    case 2: return "field, no weapon";
    case 3: return "field, weapon";
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<std::string_view> object_of_file(std::string_view file_name, std::string_view extension) {
  const auto dot = file_name.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || !equal_ignoring_case(file_name.substr(dot + 1), extension))
    return std::nullopt;
  return file_name.substr(0, dot);
}

// `export --gltf` and `pose --world` of the motions a file of this parse holds.
template <Result<KH2File> (*Parse)(std::span<const std::byte>)>
FormatModule& with_export(FormatModule& module) {
  module.exportable = &exportable_in<Parse>;
  module.sample = &sample_in<Parse>;
  return module;
}

FormatModule in_family(FormatModule module, std::string_view extensions) {
  module.help.family = "KH2";
  module.help.extensions = extensions;
  return module;
}

FormatModule motion_set_format_module() {
  FormatModule module{"kh2_mset", "Kingdom Hearts II motion set (.mset): BAR of ANB slots, nested sets; little-endian",
                      "kh2", &detect_motion_set, &parse_container<parse_motion_set>, false,
                      &pose_in<parse_motion_set>, &curves_in<parse_motion_set>};
  module.object_from_file_name = &object_of_motion_set;
  module.object_folder = "obj";
  module.state_name = &slot_state_name;
  with_export<parse_motion_set>(module);
  module.help = {.family = "KH2", .extensions = ".mset", .slot = "slot N, or N/M inside nested set N",
                 .animation = "entry tag", .frame = "the motion's own frames at its FPS"};
  return module;
}

FormatModule anb_format_module() {
  FormatModule module{"kh2_anb", "Kingdom Hearts II ANB: BAR of one Motion and its MotionTriggers", "kh2", &detect_anb,
                      &parse_container<parse_anb>, false, &pose_in<parse_anb>, &curves_in<parse_anb>};
  return in_family(with_export<parse_anb>(module), ".anb");
}

FormatModule bar_format_module() {
  FormatModule module{"kh2_bar", "Kingdom Hearts II BAR archive (other contents): entries listed, motions inside indexed",
                      "kh2", &detect_plain_bar, &parse_container<parse_plain_bar>, false, &pose_in<parse_plain_bar>,
                      &curves_in<parse_plain_bar>};
  return in_family(with_export<parse_plain_bar>(module), {});
}

FormatModule motion_format_module() {
  FormatModule module{"kh2_motion", "Kingdom Hearts II bare Motion (raw matrices or interpolated curves)", "kh2",
                      &detect_bare_motion, &parse_bare_motion, false, &pose_bare, &curves_bare};
  module.exportable = &exportable_bare;
  module.sample = &sample_bare;
  return in_family(module, {});
}

}  // namespace animdex::kh2
