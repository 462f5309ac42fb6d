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
#include "core/listing.h"
#include "cli/exit_codes.h"
#include "cli/input_loading.h"
#include "cli/file_export.h"
#include "cli/pose_output.h"
#include "cli/skeleton_search.h"
#include "formats/export_sampling.h"
#include "core/parse_budget.h"
#include "output/output_file.h"
#include "reference/reference_data.h"
#include "rig/gltf_writer.h"
#include "rig/world_pose.h"

namespace animdex {

namespace {

std::variant<bool, int> gltf_kind(const std::filesystem::path& output) {
  const auto extension = output.extension().string();
  if (extension == ".glb") return true;
  if (extension == ".gltf") return false;
  return fail(kExitUsage, fmt::format("{}: --gltf writes OUT.glb (binary) or OUT.gltf (JSON, buffer embedded)",
                                      output.string()));
}

}  // namespace

int run_export_gltf(const ExportOptions& options, std::ostream& /*out: writes only its file*/) {
  const auto binary = gltf_kind(options.gltf);
  if (const int* code = std::get_if<int>(&binary)) return *code;
  if (same_file(options.gltf, options.file) || (!options.model.empty() && same_file(options.gltf, options.model)))
    return fail(kExitUsage, fmt::format("{} is a file being read; give another --gltf", options.gltf.string()));
  try {
    PoseRequest chosen;
    chosen.slot = options.request.slot;
    chosen.animation = options.request.animation;
    chosen.fps = options.request.fps;
    auto done = export_file(options.file, request_of(options.file, chosen, options.rate), options.model,
                            "export --gltf", kGltfBufferBudget);
    if (const int* code = std::get_if<int>(&done)) return *code;
    const auto& exported = std::get<Exported>(done);
    write_file_checked(options.gltf, exported.writer->bytes(std::get<bool>(binary)));
    const auto count = exported.writer->animation_count();
    report_written(options.gltf, fmt::format("{} animation{} on {}, {} joint{}", count, count == 1 ? "" : "s",
                                             exported.skeleton_source, exported.joints, exported.joints == 1 ? "" : "s"));
    for (const auto& note : exported.notes) fmt::print(stderr, "animdex: note: {}\n", note);
    if (!exported.left_out.empty())
      fmt::print(stderr, "animdex: note: left out {}:{}\n", exported.left_out.size(), listed(exported.left_out));
    if (!exported.over_budget.empty())
      fmt::print(stderr, "animdex: note: left out {} past the file's {} MiB: {}; export them with --slot or --anim{}\n",
                         exported.over_budget.size(), kGltfBufferBudget >> 20, joined_names(exported.over_budget),
                         options.rate ? ", or a lower --rate" : "");
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
  if (const int code = unused_selector(*input.second, options.request.slot, options.request.animation)) return code;
  const auto request = request_of(options.file, options.request, std::nullopt);
  auto entries = entries_of(input, request, options.file);
  if (const int* code = std::get_if<int>(&entries)) return *code;
  auto& listed_entries = std::get<0>(entries);
  if (listed_entries.size() > 1) {  // as without --world: several and none chosen is no silent choice
    std::vector<std::string> names;
    for (const auto& entry : listed_entries) names.push_back(entry.slot.empty() ? entry.name : entry.slot);
    return fail(kExitUsage, fmt::format("{}: the file has {} animations: choose one with --slot or --anim ({})",
                                        options.file.string(), listed_entries.size(),
                                        listing_text(names, "animations")));
  }
  auto planned = checked_plan(listed_entries, options.file, options.model, true, "pose");
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
