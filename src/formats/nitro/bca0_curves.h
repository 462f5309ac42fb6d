#pragma once
// `animdex plot` and `export --bake` on NSBCA: each animated channel of every node, valued at integer
// frames (the format stores frames; the rate is --fps, 60 by default: the DS draws 60 frames a second).
#include <cstddef>
#include <span>
#include <vector>

#include "formats/capabilities.h"

namespace animdex::nsbca {

// Channels T.x .. S.z and R.m00 .. R.m22 of each node with an animated (not constant, not bind
// pose) channel; keys are the frames a sample is stored for, samples every frame.
Answer<std::vector<AnimationCurves>> curves_nodes(std::span<const std::byte> bytes, const CurveRequest& request);

}  // namespace animdex::nsbca
