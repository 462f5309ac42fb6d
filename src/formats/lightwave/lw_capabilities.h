#pragma once
// What LightWave files can do besides being indexed: pose and curves (LWMO, LWEN) and convert
// (LWMO/LWEN between versions 1 and 3; Kuper ASCII to an LWMO motion).
#include <cstddef>
#include <span>

#include "formats/capabilities.h"

namespace animdex::lightwave {

// Every channel's value at one time: rows channel, index, value.
Answer<Pose> pose_curves(std::span<const std::byte> bytes, const PoseRequest& request);
// One curve per channel (x .. sz, or the envelope's one), keys and samples in seconds.
Answer<std::vector<AnimationCurves>> curves_lw(std::span<const std::byte> bytes, const CurveRequest& request);
// The other version (or request.version).
Answer<Converted> convert_curves(std::span<const std::byte> bytes, const ConvertRequest& request);
// An LWMO motion, version 1 unless request.version is 3; mappings NAME=CHANNEL[:SCALE].
Answer<Converted> convert_kuper(std::span<const std::byte> bytes, const ConvertRequest& request);

}  // namespace animdex::lightwave
