#pragma once
// Writes KH2 Motion entries and ANBs from the parser's structs, so tests can build motion sets
// with every shape the parser must handle (kh2-mset.md "Motion sub-file" layout).
#include <cstddef>
#include <vector>

#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_motion.h"

namespace animdex::kh2 {

// Tables in the order the parser's implicit sizes need: IK helpers, joints, initial poses,
// forward curves, inverse curves, keys, key times, values, tangents; extra data offset = length.
// IK helpers and joints are written as zeros/identity (the parser only checks their bounds).
std::vector<std::byte> write_motion(const Motion& motion);

// An ANB: a BAR of the motion (type 9) and `trigger_bytes` of MotionTriggers (type 16).
std::vector<std::byte> write_anb(const std::vector<std::byte>& motion_bytes,
                                 const std::vector<std::byte>& trigger_bytes = {}, const std::string& name = "A000");

}  // namespace animdex::kh2
