#include "formats/registry.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "formats/gnt_mot/gnt_mot_format.h"
#include "formats/kh2/kh2_format.h"
#include "formats/lightwave/lw_format.h"
#include "formats/nitro/bma0_format.h"
#include "formats/nitro/bmd0_format.h"
#include "formats/nitro/bta0_format.h"
#include "formats/nitro/btp0_format.h"
#include "formats/nitro/bva0_format.h"
#include "formats/nitro/bca0_format.h"

namespace animdex {

namespace {
// One line per format. Order matters only where two formats could claim the same bytes.
const std::array kFormats = {
    gnt_mot::format_module(),
    lightwave::motion_format_module(),
    lightwave::envelope_format_module(),
    lightwave::kuper_format_module(),
    kh2::mdlx_format_module(),
    kh2::motion_set_format_module(),
    kh2::anb_format_module(),
    kh2::bar_format_module(),
    kh2::motion_format_module(),
    nsbca::format_module(),
    nitro::bmd0_format_module(),
    nitro::bva0_format_module(),
    nitro::bta0_format_module(),
    nitro::btp0_format_module(),
    nitro::bma0_format_module(),
};
}  // namespace

std::span<const FormatModule> registered_formats() { return kFormats; }

const FormatModule* detect_format(std::span<const std::byte> head, std::uint64_t file_size) {
  if (head.size() > kDetectBytes) head = head.first(kDetectBytes);
  for (const auto& format : kFormats)
    if (format.detect(head, file_size)) return &format;
  return nullptr;
}

const FormatModule* find_format(std::string_view id) {
  for (const auto& format : kFormats)
    if (format.id == id) return &format;
  return nullptr;
}

bool recognized_by_a_format(std::span<const std::byte> head) {
  if (detect_format(head, head.size())) return true;
  return std::any_of(kFormats.begin(), kFormats.end(),
                     [&](const FormatModule& format) { return format.recognizes && format.recognizes(head); });
}

namespace {

// Families in registry order, each with the texts `text` gives for its formats.
template <typename Text>
std::string join_families(Text text, std::string_view separator) {
  std::vector<std::string_view> families;
  std::vector<std::string> texts;
  for (const auto& format : kFormats) {
    const auto found = std::find(families.begin(), families.end(), format.help.family);
    const std::string own = text(format);
    if (found == families.end()) {
      families.push_back(format.help.family);
      texts.push_back(own);
    } else if (auto& held = texts[static_cast<std::size_t>(found - families.begin())]; held.empty()) {
      held = own;
    }
  }
  std::string joined;
  for (const auto& each : texts)
    if (!each.empty()) joined += (joined.empty() ? "" : std::string(separator)) + each;
  return joined;
}

}  // namespace

std::string help_by_family(std::string_view FormatHelp::*field, std::string_view separator) {
  return join_families([&](const FormatModule& format) {
    const std::string_view text = format.help.*field;
    return text.empty() ? std::string() : fmt::format("{} {}", format.help.family, text);
  }, separator);
}

std::string families_with_extensions() {
  // A family's file names from all its formats: KH2 .mset and .anb are two modules.
  return join_families([](const FormatModule& format) {
    std::string names;
    for (const auto& other : kFormats)
      if (other.help.family == format.help.family && !other.help.extensions.empty())
        names += (names.empty() ? "" : "/") + std::string(other.help.extensions);
    return names.empty() ? std::string() : fmt::format("{} {}", format.help.family, names);
  }, ", ");
}

std::string families_that_pose() {
  return join_families([](const FormatModule& format) { return format.pose ? std::string(format.help.family) : ""; }, ", ");
}

std::string families_with_curves() {
  return join_families([](const FormatModule& format) { return format.curves ? std::string(format.help.family) : ""; }, ", ");
}

std::optional<std::string_view> slot_state_name(std::int64_t state) {
  for (const auto& format : kFormats)
    if (format.state_name)
      if (const auto name = format.state_name(state)) return name;
  return std::nullopt;
}

}  // namespace animdex
