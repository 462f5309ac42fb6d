#pragma once
// KH2 models and motions for `pose --world` and `export --gltf` (gltf-export.md "Kingdom Hearts
// II", kh2-mdlx.md): a model's bone table as a skeleton (Euler XYZ as q = qz * qy * qx), and a
// motion sampled on it at its own FPS over its frame range, by the game's rules: interpolated
// motions through the curves (channels they leave to the model taken from its bind pose, angle
// by angle), raw motions from their model-space matrices (local = inverse(parent world) * world).
// IK helpers and what the joint stage changes later are not bones of the model: left out, noted.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "formats/capabilities.h"
#include "formats/kh2/kh2_motion_set.h"

namespace animdex::kh2 {

Answer<std::vector<model::Skeleton>> mdlx_skeletons(std::span<const std::byte> bytes, const SkeletonRequest& request);

// The names a motion's skeleton is looked for under: its file's stem in capitals, then the base
// object code (its first two `_` parts: `M_EX350_MEMO` -> `M_EX350`), as kh2_after_index.sql.
std::vector<std::string> skeleton_names_of(std::string_view file_name);

Answer<std::vector<ExportEntry>> exportable_of(Result<KH2File> parsed, const ExportRequest& request);
Answer<model::SampledAnimation> sample_of(Result<KH2File> parsed, const ExportRequest& request,
                                          const ExportEntry& entry, const model::Skeleton& skeleton);
Answer<std::vector<ExportEntry>> exportable_bare(std::span<const std::byte> bytes, const ExportRequest& request);
Answer<model::SampledAnimation> sample_bare(std::span<const std::byte> bytes, const ExportRequest& request,
                                            const ExportEntry& entry, const model::Skeleton& skeleton);

template <Result<KH2File> (*Parse)(std::span<const std::byte>)>
Answer<std::vector<ExportEntry>> exportable_in(std::span<const std::byte> bytes, const ExportRequest& request) {
  return exportable_of(Parse(bytes), request);
}
template <Result<KH2File> (*Parse)(std::span<const std::byte>)>
Answer<model::SampledAnimation> sample_in(std::span<const std::byte> bytes, const ExportRequest& request,
                                          const ExportEntry& entry, const model::Skeleton& skeleton) {
  return sample_of(Parse(bytes), request, entry, skeleton);
}

}  // namespace animdex::kh2
