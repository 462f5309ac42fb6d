#include "cli/file_export.h"

#include <algorithm>

#include <fmt/format.h>

#include "cli/errors.h"
#include "cli/exit_codes.h"
#include "cli/input_loading.h"
#include "cli/skeleton_search.h"
#include "core/parse_budget.h"
#include "reference/reference_data.h"

namespace animdex {

// The input and the module that exports it, or the exit code; a format that can never export
// says why (GNT) rather than only which formats can.
std::variant<Loaded, int> load_exportable(const std::filesystem::path& path, std::string_view verb) {
  const auto peek = read_input(path);
  if (peek.error.empty())
    if (const auto* format = detect_format(peek.bytes, peek.bytes.size()); format && !format->no_export.empty())
      return fail(kExitUsage, fmt::format("{}: cannot be exported: {}", path.string(), format->no_export));
  auto loaded = load_for(path, &FormatModule::exportable, verb);
  if (const int* code = std::get_if<int>(&loaded)) return *code;
  return std::get<Loaded>(std::move(loaded));
}

// Joints the file leaves unnamed take the game's bone names, else "bone N".
void name_joints(model::Skeleton& skeleton, std::string_view game) {
  const auto& reference = ReferenceData::embedded();
  for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
    auto& name = skeleton.joints[j].name;
    if (!name.empty()) continue;
    const auto known = game.empty() ? std::nullopt : reference.bone_name(game, static_cast<std::int64_t>(j));
    name = known ? fmt::format("{} {}", j, *known) : fmt::format("bone {}", j);
  }
}

std::string label_of(const ExportEntry& entry, std::string_view game) {
  if (!entry.motion_id || game.empty()) return entry.name;
  const auto purpose = ReferenceData::embedded().purpose(game, *entry.motion_id);
  return purpose ? fmt::format("{} ({})", entry.name, *purpose) : entry.name;
}


namespace {

// The skeleton one entry plays on, or why none.
std::variant<const rig::SkeletonCandidate*, std::string> skeleton_for(const ExportEntry& entry,
                                                                      const std::vector<rig::SkeletonCandidate>& candidates,
                                                                      bool by_hand) {
  if (by_hand && candidates.size() == 1) {
    const auto misfit = rig::misfit(entry, candidates.front().skeleton);
    if (misfit.empty()) return &candidates.front();
    return misfit;
  }
  const auto link = rig::choose_skeleton(entry, candidates);
  if (link.chosen) return link.chosen;
  return by_hand ? link.why : link.why + "; give the model with --model FILE";
}

void add_to_plan(Plan& plan, const ExportEntry& entry, const rig::SkeletonCandidate& skeleton) {
  if (!plan.skeleton) plan.skeleton = skeleton;
  if (!rig::same_skeleton(plan.skeleton->skeleton, skeleton.skeleton)) {
    plan.left_out.push_back(fmt::format("'{}' plays on {}, not on {}; export it with --model", entry.name,
                                        skeleton.source, plan.skeleton->source));
    return;
  }
  plan.entries.push_back(&entry);
}

std::variant<Plan, int> plan_export(const std::vector<ExportEntry>& entries, const std::filesystem::path& file,
                                    const std::filesystem::path& model) {
  std::vector<rig::SkeletonCandidate> candidates;
  const bool own = !entries.empty() && entries.front().own_skeleton;
  if (!model.empty() && !own) {
    auto found = skeletons_of_model(model);
    if (const int* code = std::get_if<int>(&found)) return *code;
    candidates = std::get<0>(std::move(found));
  } else if (!own) {
    candidates = skeletons_beside(file);
  }
  Plan plan;
  for (const auto& entry : entries) {
    if (!entry.refusal.empty()) {
      plan.left_out.push_back(entry.refusal);
    } else if (entry.own_skeleton) {
      add_to_plan(plan, entry, {file.string(), *entry.own_skeleton});
    } else {
      const auto chosen = skeleton_for(entry, candidates, !model.empty());
      if (const auto* why = std::get_if<std::string>(&chosen)) plan.left_out.push_back(fmt::format("'{}': {}", entry.name, *why));
      else add_to_plan(plan, entry, *std::get<const rig::SkeletonCandidate*>(chosen));
    }
  }
  return plan;
}

}  // namespace

// The first reasons (a file controls how many animations it has), then how many more.
std::string listed(const std::vector<std::string>& lines) {
  std::string text;
  for (std::size_t i = 0; i < lines.size() && i < 4; ++i) text += (i ? "; " : " ") + lines[i];
  if (lines.size() > 4) text += fmt::format("; and {} more", lines.size() - 4);
  return text;
}

// The plan for `file`, which must export something: with --slot or --anim, everything asked for.
std::variant<Plan, int> checked_plan(const std::vector<ExportEntry>& entries, const std::filesystem::path& file,
                                     const std::filesystem::path& model, bool chosen_by_name, std::string_view verb) {
  auto planned = plan_export(entries, file, model);
  if (const int* code = std::get_if<int>(&planned)) return *code;
  auto& plan = std::get<Plan>(planned);
  if (plan.entries.empty() || (chosen_by_name && !plan.left_out.empty()))
    return fail(kExitUsage, fmt::format("{}: nothing to {}:{}", file.string(), verb, listed(plan.left_out)));
  return std::move(plan);
}

ExportRequest request_of(const std::filesystem::path& file, const PoseRequest& chosen, std::optional<double> rate) {
  ExportRequest request;
  request.slot = chosen.slot;
  request.animation = chosen.animation;
  request.file_name = file.filename().string();
  request.rate = rate;
  request.file_fps = chosen.fps;
  return request;
}

// The entries, or the exit code of the capability's error.
std::variant<std::vector<ExportEntry>, int> entries_of(const Loaded& loaded, const ExportRequest& request,
                                                       const std::filesystem::path& file) {
  const ScopedParseBudget budget;
  return answered(loaded.second->exportable(loaded.first.bytes, request), file);
}

// One entry sampled and checked against the skeleton, or the exit code.
std::variant<model::SampledAnimation, int> sampled(const Loaded& loaded, const ExportRequest& request,
                                                   const ExportEntry& entry, const model::Skeleton& skeleton,
                                                   const std::filesystem::path& file) {
  const ScopedParseBudget budget;
  auto answer = answered(loaded.second->sample(loaded.first.bytes, request, entry, skeleton), file);
  if (const int* code = std::get_if<int>(&answer)) return *code;
  auto& animation = std::get<model::SampledAnimation>(answer);
  if (auto broken = model::validate(animation, skeleton))
    return fail(kExitFileErrors, fmt::format("{}: {}", file.string(), *broken));
  return std::move(animation);
}


namespace {

// The most bytes `animation` can add to the file: every channel keyed (time, T, R, S as float32),
// and each channel's accessor, sampler and channel in the JSON.
std::size_t most_bytes(const model::SampledAnimation& animation) {
  const std::size_t joints = animation.frames.empty() ? 0 : animation.frames.front().size();
  return animation.frames.size() * (4 + joints * 10 * 4) + joints * 3 * rig::GltfWriter::kJsonBytesPerChannel;
}

}  // namespace

std::variant<Exported, int> export_file(const std::filesystem::path& file, const ExportRequest& request,
                                        const std::filesystem::path& model, std::string_view verb,
                                        std::size_t budget, std::size_t skip, const EntryFilter& keep) {
  auto loaded = load_exportable(file, verb);
  if (const int* code = std::get_if<int>(&loaded)) return *code;
  const auto& input = std::get<Loaded>(loaded);
  auto entries = entries_of(input, request, file);
  if (const int* code = std::get_if<int>(&entries)) return *code;
  if (keep) std::erase_if(std::get<0>(entries), [&](const ExportEntry& entry) { return !keep(entry); });
  const bool chosen_by_name = !request.slot.empty() || !request.animation.empty();
  auto planned = checked_plan(std::get<0>(entries), file, model, chosen_by_name, "export");
  if (const int* code = std::get_if<int>(&planned)) return *code;
  auto& plan = std::get<Plan>(planned);
  auto& skeleton = plan.skeleton->skeleton;
  Exported exported;
  name_joints(skeleton, input.second->reference_game);
  for (const auto& joint : skeleton.joints) exported.joint_names.push_back(joint.name);
  exported.writer = std::make_unique<rig::GltfWriter>(skeleton, "animdex " ANIMDEX_VERSION);
  exported.skeleton_source = plan.skeleton->source;
  exported.joints = skeleton.joints.size();
  exported.left_out = std::move(plan.left_out);
  for (std::size_t e = std::min(skip, plan.entries.size()); e < plan.entries.size(); ++e) {
    const auto* entry = plan.entries[e];
    auto animation = sampled(input, request, *entry, skeleton, file);
    if (const int* code = std::get_if<int>(&animation)) return *code;
    auto& samples = std::get<model::SampledAnimation>(animation);
    if (exported.writer->animation_count() > 0 && exported.writer->approximate_size() + most_bytes(samples) > budget) {
      // The rest go too, so each file of a split export holds consecutive animations.
      for (; e < plan.entries.size(); ++e) exported.over_budget.push_back(plan.entries[e]->name);
      break;
    }
    samples.name = label_of(*entry, input.second->reference_game);
    exported.notes.insert(samples.notes.begin(), samples.notes.end());
    exported.animations.push_back({samples.name, entry->slot, entry->name, samples.fps, samples.first_time,
                                   samples.frames.size()});
    exported.writer->add(samples);
  }
  return exported;
}

}  // namespace animdex
