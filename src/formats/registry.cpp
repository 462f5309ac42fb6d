#include "formats/registry.h"

#include <array>

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

}  // namespace animdex
