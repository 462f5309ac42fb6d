// `export --gltf` and `pose --world`: an animation on its skeleton. The formats sample local
// transforms (formats/capabilities.h: skeletons, exportable, sample); the skeleton comes from
// --model or from the models beside the file by the link rule (cli/skeleton_search.h); rig/ turns
// them into world poses and glTF.
#include <algorithm>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/errors.h"
#include "cli/exit_codes.h"
#include "cli/input_loading.h"
#include "cli/pose_output.h"
#include "cli/skeleton_search.h"
#include "core/parse_budget.h"
#include "output/output_file.h"
#include "reference/reference_data.h"
#include "rig/gltf_writer.h"
#include "rig/world_pose.h"

namespace animdex {

namespace {

using Loaded = std::pair<InputBytes, const FormatModule*>;

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

// The animations one file exports together, on one skeleton, and what was left out and why.
struct Plan {
  std::optional<rig::SkeletonCandidate> skeleton;
  std::vector<const ExportEntry*> entries;
  std::vector<std::string> left_out;
};

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

// The first reasons (a file controls how many animations it has), then how many more.
std::string listed(const std::vector<std::string>& lines) {
  std::string text;
  for (std::size_t i = 0; i < lines.size() && i < 4; ++i) text += (i ? "; " : " ") + lines[i];
  if (lines.size() > 4) text += fmt::format("; and {} more", lines.size() - 4);
  return text;
}

// The plan for `file`, which must export something: with --slot or --anim, everything asked for.
std::variant<Plan, int> checked_plan(const std::vector<ExportEntry>& entries, const std::filesystem::path& file,
                                     const std::filesystem::path& model, bool chosen_by_name) {
  auto planned = plan_export(entries, file, model);
  if (const int* code = std::get_if<int>(&planned)) return *code;
  auto& plan = std::get<Plan>(planned);
  if (plan.entries.empty() || (chosen_by_name && !plan.left_out.empty()))
    return fail(kExitUsage, fmt::format("{}: nothing to export:{}", file.string(), listed(plan.left_out)));
  return std::move(plan);
}

ExportRequest request_of(const std::filesystem::path& file, std::string slot, std::string animation,
                         std::optional<double> rate) {
  ExportRequest request;
  request.slot = std::move(slot);
  request.animation = std::move(animation);
  request.file_name = file.filename().string();
  request.rate = rate;
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

std::variant<bool, int> gltf_kind(const std::filesystem::path& output) {
  const auto extension = output.extension().string();
  if (extension == ".glb") return true;
  if (extension == ".gltf") return false;
  return fail(kExitUsage, fmt::format("{}: --gltf writes OUT.glb (binary) or OUT.gltf (JSON, buffer embedded)",
                                      output.string()));
}

}  // namespace

int run_export_gltf(const ExportOptions& options, std::ostream& out) {
  const auto binary = gltf_kind(options.gltf);
  if (const int* code = std::get_if<int>(&binary)) return *code;
  if (same_file(options.gltf, options.file) || (!options.model.empty() && same_file(options.gltf, options.model)))
    return fail(kExitUsage, fmt::format("{} is a file being read; give another --gltf", options.gltf.string()));
  auto loaded = load_exportable(options.file, "export --gltf");
  if (const int* code = std::get_if<int>(&loaded)) return *code;
  const auto& input = std::get<Loaded>(loaded);
  const auto request = request_of(options.file, options.request.slot, options.request.animation, options.rate);
  auto entries = entries_of(input, request, options.file);
  if (const int* code = std::get_if<int>(&entries)) return *code;
  auto planned = checked_plan(std::get<0>(entries), options.file, options.model,
                              !request.slot.empty() || !request.animation.empty());
  if (const int* code = std::get_if<int>(&planned)) return *code;
  auto& plan = std::get<Plan>(planned);
  name_joints(plan.skeleton->skeleton, input.second->reference_game);
  try {
    rig::GltfWriter writer(plan.skeleton->skeleton, "animdex " ANIMDEX_VERSION);
    std::set<std::string> notes;
    for (const auto* entry : plan.entries) {
      auto animation = sampled(input, request, *entry, plan.skeleton->skeleton, options.file);
      if (const int* code = std::get_if<int>(&animation)) return *code;
      auto& samples = std::get<model::SampledAnimation>(animation);
      samples.name = label_of(*entry, input.second->reference_game);
      notes.insert(samples.notes.begin(), samples.notes.end());
      writer.add(samples);
    }
    write_file_checked(options.gltf, writer.bytes(std::get<bool>(binary)));
    out << fmt::format("wrote {}: {} animation{} on {} ({} joints)\n", options.gltf.string(), writer.animation_count(),
                       writer.animation_count() == 1 ? "" : "s", plan.skeleton->source,
                       plan.skeleton->skeleton.joints.size());
    for (const auto& note : notes) out << "note: " << note << '\n';
    if (!plan.left_out.empty()) out << fmt::format("left out {}:{}\n", plan.left_out.size(), listed(plan.left_out));
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
  return kExitOk;
}

namespace {

// The bind pose in world space of a model file's skeleton (the one --anim names in a model set).
int pose_model_world(const PoseOptions& options, std::ostream& out) {
  auto found = skeletons_of_model(options.file);
  if (const int* code = std::get_if<int>(&found)) return *code;
  auto& skeletons = std::get<0>(found);
  auto chosen = skeletons.begin();
  if (!options.request.animation.empty()) {
    chosen = std::find_if(skeletons.begin(), skeletons.end(),
                          [&](const auto& c) { return c.skeleton.name == options.request.animation; });
    if (chosen == skeletons.end()) return fail(kExitUsage, fmt::format("{}: no model named '{}'", options.file.string(), options.request.animation));
  }
  const auto input = read_input(options.file);
  const auto* format = detect_format(input.bytes, input.bytes.size());
  name_joints(chosen->skeleton, format ? format->reference_game : "");
  auto pose = rig::world_pose(chosen->skeleton, model::bind_pose(chosen->skeleton));
  pose.about = {{"model", chosen->skeleton.name}, {"pose", std::string("bind")}};
  write_poses(out, {pose}, options.file, format ? format->id : "", options.format, options.header);
  return kExitOk;
}

}  // namespace

int run_pose_world(const PoseOptions& options, std::ostream& out) {
  {
    const auto input = read_input(options.file);
    const auto* format = input.error.empty() ? detect_format(input.bytes, input.bytes.size()) : nullptr;
    if (format && format->skeletons && !format->exportable) return pose_model_world(options, out);
  }
  auto loaded = load_exportable(options.file, "pose --world");
  if (const int* code = std::get_if<int>(&loaded)) return *code;
  const auto& input = std::get<Loaded>(loaded);
  const auto request = request_of(options.file, options.request.slot, options.request.animation, options.request.fps);
  auto entries = entries_of(input, request, options.file);
  if (const int* code = std::get_if<int>(&entries)) return *code;
  auto& listed_entries = std::get<0>(entries);
  listed_entries.resize(std::min<std::size_t>(listed_entries.size(), 1));  // pose: the first, as without --world
  auto planned = checked_plan(listed_entries, options.file, options.model, true);
  if (const int* code = std::get_if<int>(&planned)) return *code;
  auto& plan = std::get<Plan>(planned);
  name_joints(plan.skeleton->skeleton, input.second->reference_game);
  std::vector<ExportRequest> times;
  for (const double seconds : options.times) times.push_back(request), times.back().seconds = seconds;
  for (const double frame : options.frames) times.push_back(request), times.back().frame = frame;
  if (times.empty()) times.push_back(request);  // every frame
  std::vector<Pose> poses;
  const auto& entry = *plan.entries.front();
  for (const auto& at : times) {
    auto animation = sampled(input, at, entry, plan.skeleton->skeleton, options.file);
    if (const int* code = std::get_if<int>(&animation)) return *code;
    const auto& samples = std::get<model::SampledAnimation>(animation);
    for (std::size_t f = 0; f < samples.frames.size(); ++f) {
      poses.push_back(rig::world_pose(plan.skeleton->skeleton, samples.frames[f]));
      const double time = samples.first_time + static_cast<double>(f) / samples.fps;
      poses.back().about = {{"animation", label_of(entry, input.second->reference_game)},
                            {"model", plan.skeleton->source},
                            {"time", time},
                            {"frame", time * samples.fps}};
    }
  }
  write_poses(out, poses, options.file, input.second->id, options.format, options.header);
  return kExitOk;
}

}  // namespace animdex
