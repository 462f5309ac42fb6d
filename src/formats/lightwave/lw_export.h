#pragma once
// A LightWave motion for `export --gltf` (gltf-export.md "LightWave"): one object, so one animated
// node of its own, sampled at the request's rate (30 per second by default, LightWave's) from its
// first key to its last. LightWave is left-handed with rotation heading (Y), pitch (X), bank (Z):
// glTF's right-handed frame mirrors Z, so position z and the heading and pitch angles change sign.
#include <cstddef>
#include <span>
#include <vector>

#include "formats/capabilities.h"

namespace animdex::lightwave {

Answer<std::vector<ExportEntry>> lw_exportable(std::span<const std::byte> bytes, const ExportRequest& request);
Answer<model::SampledAnimation> lw_sample(std::span<const std::byte> bytes, const ExportRequest& request,
                                          const ExportEntry& entry, const model::Skeleton& skeleton);

}  // namespace animdex::lightwave
