#pragma once
// What KH2 motion sets, ANBs, BARs and bare Motions can do besides being indexed: `pose` (every
// joint after the curves at one time; a raw motion's stored matrices) and `curves` (for `plot` and
// `export --bake`). A motion inside a set is chosen with --slot N, or N/M inside nested set N.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "formats/capabilities.h"
#include "formats/kh2/kh2_motion_set.h"

namespace animdex::kh2 {

template <Result<KH2File> (*Parse)(std::span<const std::byte>)>
Answer<Pose> pose_in(std::span<const std::byte> bytes, const PoseRequest& request);
template <Result<KH2File> (*Parse)(std::span<const std::byte>)>
Answer<std::vector<AnimationCurves>> curves_in(std::span<const std::byte> bytes, const CurveRequest& request);

Answer<Pose> pose_bare(std::span<const std::byte> bytes, const PoseRequest& request);
Answer<std::vector<AnimationCurves>> curves_bare(std::span<const std::byte> bytes, const CurveRequest& request);

// One motion at a time / as curves (slot and name as the user addresses it).
Answer<Pose> pose_motion(const Motion& motion, const std::string& slot, const std::string& name,
                         const PoseRequest& request);
Answer<AnimationCurves> motion_curves(const Motion& motion, const std::string& slot, const std::string& name,
                                      double samples_per_second);
// The motions `slot` or `animation` choose (both empty: every one), or the usage error naming the
// slots there are.
Answer<std::vector<const SlotMotion*>> chosen_motions(const KH2File& file, const std::string& slot,
                                                     const std::string& animation);
// "N", or "P/M" inside nested set P; empty for a motion outside a set.
std::string slot_of(const SlotMotion& motion);
float fps_of(const Motion& motion);
// What the templates use, for any parsed file.
Answer<Pose> pose_of(Result<KH2File> parsed, const PoseRequest& request);
Answer<std::vector<AnimationCurves>> curves_of(Result<KH2File> parsed, const CurveRequest& request);

template <Result<KH2File> (*Parse)(std::span<const std::byte>)>
Answer<Pose> pose_in(std::span<const std::byte> bytes, const PoseRequest& request) {
  return pose_of(Parse(bytes), request);
}
template <Result<KH2File> (*Parse)(std::span<const std::byte>)>
Answer<std::vector<AnimationCurves>> curves_in(std::span<const std::byte> bytes, const CurveRequest& request) {
  return curves_of(Parse(bytes), request);
}

}  // namespace animdex::kh2
