#pragma once
// Short names for the KH2 builders the tests use.
#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_builder.h"
#include "formats/kh2/kh2_motion_writer.h"

namespace animdex::test {

inline kh2::Motion interpolated_motion(std::int16_t bone_count, const std::vector<std::int16_t>& curve_bones,
                                       int channel = 3) {
  return kh2::build_interpolated_motion(bone_count, curve_bones, channel);
}
inline std::vector<std::byte> anb_of(const kh2::Motion& motion) { return kh2::build_anb(motion); }
inline std::vector<std::byte> motion_set(const std::string& pattern, int set_type) {
  return kh2::build_motion_set(pattern, set_type);
}

}  // namespace animdex::test
