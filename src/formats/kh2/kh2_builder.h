#pragma once
// Builds small KH2 motions and motion sets from a few numbers, for the sample dump and the tests.
#include <cstdint>
#include <string>
#include <vector>

#include "formats/kh2/kh2_motion.h"

namespace animdex::kh2 {

// An interpolated motion of `bone_count` bones (plus one IK helper): one curve per listed bone on
// `channel`, two keys (linear, then hermite with tangents 0.25 / -0.25) at times 0 and 10 holding
// the values `bone` and `bone + 0.5`; 30 fps, frames 0..10.
Motion build_interpolated_motion(std::int16_t bone_count, const std::vector<std::int16_t>& curve_bones,
                                 int channel = 3);

// An ANB holding `motion` and empty MotionTriggers.
std::vector<std::byte> build_anb(const Motion& motion);

// A motion set from a pattern of slots: 'A' real (an ANB whose motion animates bone slot % 30
// of 32), 'D' a dummy named DUMM. `set_type`: 0 Default, 1 Player, 2 Raw.
std::vector<std::byte> build_motion_set(const std::string& pattern, int set_type);

}  // namespace animdex::kh2
