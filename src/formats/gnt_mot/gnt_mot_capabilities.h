#pragma once
// What GNT .mot files can do besides being indexed: `pose` (every animated bone at one time) and
// `curves` (each channel's keys and samples, for `plot` and `export --bake`).
#include <cstddef>
#include <span>
#include <vector>

#include "formats/capabilities.h"

namespace animdex::gnt_mot {

// Columns node, name, T (x y z), R (x y z twist), S (x y z); --slot or --anim is the animation ID
// (decimal or 0x hex), --frame counts 1/60 s frames unless --fps says otherwise.
Answer<Pose> pose_bones(std::span<const std::byte> bytes, const PoseRequest& request);
// Channels T.x .. S.z per bone, keys as stored, samples linear between them.
Answer<std::vector<AnimationCurves>> curves_bones(std::span<const std::byte> bytes, const CurveRequest& request);

}  // namespace animdex::gnt_mot
