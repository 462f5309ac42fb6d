#pragma once
// What LightWave files can do besides being indexed: pose and bake (LWMO, LWEN) and convert
// (LWMO/LWEN between versions 1 and 3; Kuper ASCII to an LWMO motion).
#include <cstddef>
#include <span>

#include "formats/capabilities.h"

namespace animdex::lightwave {

// Every channel's value at one time: columns channel, index, value.
Answer<Pose> pose_curves(std::span<const std::byte> bytes, const PoseRequest& request);
// Columns sample, seconds, then one per channel.
Answer<ResultTable> bake_curves(std::span<const std::byte> bytes, const BakeRequest& request);
// The other version (or request.version).
Answer<Converted> convert_curves(std::span<const std::byte> bytes, const ConvertRequest& request);
// An LWMO motion, version 1 unless request.version is 3; mappings NAME=CHANNEL[:SCALE].
Answer<Converted> convert_kuper(std::span<const std::byte> bytes, const ConvertRequest& request);

}  // namespace animdex::lightwave
