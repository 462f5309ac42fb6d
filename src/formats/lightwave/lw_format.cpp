#include "formats/lightwave/lw_format.h"

#include <string_view>

#include "formats/lightwave/lw_capabilities.h"
#include "formats/lightwave/lw_export.h"
#include "formats/lightwave/lw_model.h"
#include "formats/lightwave/lw_parser.h"

namespace animdex::lightwave {

namespace {

std::string_view text_of(std::span<const std::byte> head) {
  return {reinterpret_cast<const char*>(head.data()), head.size()};
}

bool starts_with_magic(std::span<const std::byte> head, std::string_view magic) {
  const auto text = text_of(head);
  if (text.substr(0, magic.size()) != magic) return false;
  if (text.size() == magic.size()) return true;
  const char next = text[magic.size()];
  return next == '\n' || next == '\r' || next == ' ' || next == '\t';
}

Result<model::AnimationFile> parse_lw_model(std::span<const std::byte> bytes) {
  auto parsed = parse_lw(bytes);
  if (!parsed) return parsed.error();
  return to_model(parsed.value());
}

Result<model::AnimationFile> parse_kuper_model(std::span<const std::byte> bytes) {
  auto parsed = parse_kuper(bytes);
  if (!parsed) return parsed.error();
  return to_model(parsed.value());
}

}  // namespace

bool detect_motion(std::span<const std::byte> head, std::uint64_t) { return starts_with_magic(head, "LWMO"); }
bool detect_envelope(std::span<const std::byte> head, std::uint64_t) { return starts_with_magic(head, "LWEN"); }

bool detect_kuper(std::span<const std::byte> head, std::uint64_t) {
  auto text = text_of(head);
  if (text.substr(0, 4) != "Axes") return false;
  text.remove_prefix(4);
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return !text.empty() && text.front() == '=';
}

namespace {

// Motions and envelopes share the curve capabilities.
FormatModule curve_module(FormatModule module) {
  module.pose = &pose_curves;
  module.curves = &curves_lw;
  module.convert = &convert_curves;
  module.help = {.family = "LightWave", .extensions = module.id == "lw_mot" ? ".mot" : ".env", .frame = "at --fps",
                 .fps = "v1 30"};
  return module;
}

}  // namespace

FormatModule motion_format_module() {
  // A motion moves one object: it exports as one node (an envelope is one number, not a transform).
  auto module = curve_module(
      {"lw_mot", "LightWave motion, LWMO versions 1 and 3 (ASCII; 9 channels)", "", &detect_motion, &parse_lw_model});
  module.exportable = &lw_exportable;
  module.sample = &lw_sample;
  return module;
}

FormatModule envelope_format_module() {
  return curve_module({"lw_env", "LightWave envelope, LWEN versions 1 and 3 (ASCII; 1 channel)", "", &detect_envelope,
                       &parse_lw_model});
}

FormatModule kuper_format_module() {
  FormatModule module{"lw_kuper", "Kuper ASCII motion-control export (Axes = ... header, one line per frame)", "",
                      &detect_kuper, &parse_kuper_model};
  module.convert = &convert_kuper;
  module.help.family = "LightWave";
  return module;
}

}  // namespace animdex::lightwave
