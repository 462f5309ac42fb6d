#pragma once
// `export --bake --rotations`: a node's rotation as a unit quaternion (`R.qx`, `R.qy`, `R.qz`,
// `R.qw`; System.Numerics' row-vector convention, as the DS matrix and KH2's angles compose) or as
// Euler angles (`R.ex`, `R.ey`, `R.ez`: radians, X applied first, then Y, then Z, KH2's order),
// besides the format's own form (DS: nine matrix cells; KH2: Euler angles). A node whose rotation
// the file keys only in part (a KH2 curve for one axis, the others from the model's bind pose)
// keeps its own channels, and a note says so.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/curves.h"

namespace animdex {

enum class RotationForm { native, quaternion, euler };

std::optional<RotationForm> parse_rotation_form(std::string_view name);

// Rewrites `curves`' rotation channels into `form`; returns the notes, or throws
// std::invalid_argument when the format's rotations are not a rotation alone (GNT, LightWave).
std::vector<std::string> convert_rotations(AnimationCurves& curves, RotationForm form);

}  // namespace animdex
