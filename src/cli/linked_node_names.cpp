#include "cli/linked_node_names.h"

#include <utility>
#include <variant>

#include "cli/skeleton_search.h"
#include "core/parse_budget.h"
#include "rig/skeleton_link.h"

namespace animdex {

LinkedNodeNames::LinkedNodeNames(std::filesystem::path file, std::span<const std::byte> bytes,
                                 const FormatModule& format, std::string slot, std::string animation,
                                 std::optional<double> fps)
    : file_(std::move(file)), bytes_(bytes), format_(&format) {
  chosen_.slot = std::move(slot);
  chosen_.animation = std::move(animation);
  chosen_.file_name = file_.filename().string();
  chosen_.file_fps = fps;
}

const std::string* LinkedNodeNames::name(std::string_view animation, std::int64_t node) {
  if (!found_) find();
  const model::Skeleton* skeleton = first_;
  if (!animation.empty()) {
    const auto named = by_animation_.find(animation);
    skeleton = named == by_animation_.end() ? nullptr : named->second;
  }
  if (!skeleton || node < 0 || static_cast<std::size_t>(node) >= skeleton->joints.size()) return nullptr;
  const auto& name = skeleton->joints[static_cast<std::size_t>(node)].name;
  return name.empty() ? nullptr : &name;
}

bool LinkedNodeNames::linked() {
  if (!found_) find();
  return first_ || !by_animation_.empty();
}

void LinkedNodeNames::find() {
  found_ = true;
  if (!format_->exportable) return;
  const ScopedParseBudget budget;
  const auto entries = format_->exportable(bytes_, chosen_);
  const auto* listed = std::get_if<std::vector<ExportEntry>>(&entries);
  if (!listed || listed->empty()) return;
  models_ = skeletons_beside(file_);
  for (const auto& entry : *listed) {
    const auto link = rig::choose_skeleton(entry, models_);
    if (!link.chosen) continue;
    if (&entry == &listed->front()) first_ = &link.chosen->skeleton;
    by_animation_.try_emplace(entry.name, &link.chosen->skeleton);
  }
}

}  // namespace animdex
