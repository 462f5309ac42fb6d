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

std::size_t sample_count(int frame_count, int step) {
  // nsbca.md: count = ceil(numFrame/step) + (numFrame-1) % step; not L/step + step.
  if (frame_count <= 0 || step <= 0) return 0;
  return static_cast<std::size_t>((frame_count + step - 1) / step + (frame_count - 1) % step);
}

}  // namespace animdex::nsbca
