#pragma once
// DS node names for pose, plot and export --bake: a DS animation names none of its nodes, the
// model it links to does (`bone-users` shows them: node 20 is `head1`). The model is the one the
// link rule finds beside the file, as `pose --world` finds it. Finding it parses every model beside
// the file, so it is done once per run and only when a DS node asks for its name.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/capabilities.h"
#include "formats/registry.h"
#include "rig/skeleton_link.h"

namespace animdex {

class LinkedNodeNames {
 public:
  // `bytes` must outlive this object; `slot`, `animation` and `fps` are the run's --slot, --anim and --fps.
  LinkedNodeNames(std::filesystem::path file, std::span<const std::byte> bytes, const FormatModule& format,
                  std::string slot, std::string animation, std::optional<double> fps);

  // The linked model's name of `node` in the animation the format calls `animation` (empty: the
  // first the choice exports), or nullptr: no model links, or its node has no name.
  const std::string* name(std::string_view animation, std::int64_t node);

  // Whether a model beside the file links to one of its animations (what gives the names).
  bool linked();

 private:
  void find();

  std::filesystem::path file_;
  std::span<const std::byte> bytes_;
  const FormatModule* format_;
  ExportRequest chosen_;
  bool found_ = false;
  std::vector<rig::SkeletonCandidate> models_;
  const model::Skeleton* first_ = nullptr;
  std::map<std::string, const model::Skeleton*, std::less<>> by_animation_;
};

}  // namespace animdex
