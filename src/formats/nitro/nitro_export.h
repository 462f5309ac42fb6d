#pragma once
// DS models and joint animations for `pose --world` and `export --gltf` (gltf-export.md "Nintendo
// DS"): a BMD0 model's nodes as a skeleton (fixed point decoded, the row-vector rotation as a
// quaternion), and a BCA0 animation sampled on it at whole DS frames (60 per second), the
// channels it leaves to the model taken from the bind pose.
#include <cstddef>
#include <span>
#include <vector>

#include "formats/capabilities.h"

namespace animdex::nitro {

Answer<std::vector<model::Skeleton>> bmd0_skeletons(std::span<const std::byte> bytes, const SkeletonRequest& request);

Answer<std::vector<ExportEntry>> bca0_exportable(std::span<const std::byte> bytes, const ExportRequest& request);
Answer<model::SampledAnimation> bca0_sample(std::span<const std::byte> bytes, const ExportRequest& request,
                                            const ExportEntry& entry, const model::Skeleton& skeleton);

}  // namespace animdex::nitro
