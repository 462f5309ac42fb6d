#include "formats/nitro/bca0_types.h"

namespace animdex::nsbca {

const char* source_name(Source source) {
  switch (source) {
    case Source::identity: return "identity";
    case Source::base: return "base";
    case Source::constant: return "const";
    default: return "animated";
  }
}

TrackInfo TrackInfo::make(int step, bool fx16, std::uint32_t last_interp) {
  const std::uint32_t code = step == 4 ? 2 : step == 2 ? 1 : 0;
  return {(code << 30) | (fx16 ? 1u << 29 : 0u) | ((last_interp & 0x1FFF) << 16)};
}

nitro::Steps sized_steps(int frame_count, int step) {
  return {TrackInfo::make(step, false, 0).step_code(), nitro::regular_last_interp(frame_count, step)};
}

std::size_t sample_count(int frame_count, int step) {
  if (frame_count <= 0 || step <= 0) return 0;
  return nitro::sample_count(frame_count, sized_steps(frame_count, step));
}

}  // namespace animdex::nsbca
