#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <variant>

#include "cli/commands.h"
#include "output/json_text.h"
#include "cli/bake_rotations.h"
#include "cli/errors.h"
#include "cli/file_export.h"
#include "cli/linked_node_names.h"
#include "cli/input_loading.h"
#include "cli/pose_output.h"
#include "core/number_text.h"
#include "cli/verb.h"
#include "formats/registry.h"
#include "core/parse_budget.h"
#include "indexer/file_reader.h"
#include "indexer/member_input.h"
#include "indexer/rows.h"
#include "output/json_rows.h"
#include "output/output_file.h"
#include "output/table_stream.h"
#include "reference/reference_data.h"

namespace animdex {

namespace {

// Bone names where the format's game has them in the reference tables (GNT: bone 3 is "hip").
void name_nodes(Pose& pose, std::string_view game) {
  if (game.empty() || pose.columns.size() < 2 || pose.columns[0] != "node" || pose.columns[1] != "name") return;
  const auto& reference = ReferenceData::embedded();
  for (auto& row : pose.rows) {
    const auto* node = row.size() > 1 ? std::get_if<std::int64_t>(&row[0]) : nullptr;
    const auto* kind = row.size() > 2 ? std::get_if<std::string>(&row[2]) : nullptr;
    if (!node || (kind && *kind == "ik_helper")) continue;
    if (auto name = reference.bone_name(game, *node)) row[1] = *name;
  }
}

// A DS pose: its rows are nodes with a name column (filled only from a linked model).
bool has_node_names(const Pose& pose) {
  return pose.columns.size() >= 3 && pose.columns[1] == "node_id" && pose.columns[2] == "name";
}

// DS node names from the model the animation links to (none when no model links: the names help
// read the answer, they are not part of it).
void name_linked_nodes(Pose& pose, LinkedNodeNames& names) {
  if (!has_node_names(pose)) return;
  for (auto& row : pose.rows) {
    const auto* node = row.size() > 2 ? std::get_if<std::int64_t>(&row[1]) : nullptr;
    if (const auto* name = node ? names.name("", *node) : nullptr) row[2] = *name;
  }
}

}  // namespace

int run_pose(const PoseOptions& options, std::ostream& out) {
  if (options.world) return run_pose_world(options, out);
  if (!options.model.empty()) return fail(kExitUsage, "--model chooses the skeleton of pose --world; add --world");
  auto input = load_for(options.file, &FormatModule::pose, "pose");
  if (const int* code = std::get_if<int>(&input)) return *code;
  const auto& [file, format] = std::get<0>(input);
  if (const int code = unused_selector(*format, options.request.slot, options.request.animation)) return code;
  std::vector<PoseRequest> requests;
  for (const double seconds : options.times) {
    requests.push_back(options.request);
    requests.back().seconds = seconds;
  }
  for (const double frame : options.frames) {
    requests.push_back(options.request);
    requests.back().frame = frame;
  }
  if (requests.empty()) requests.push_back(options.request);
  std::vector<Pose> poses;
  LinkedNodeNames linked_names(options.file, file.bytes, *format, options.request.slot, options.request.animation,
                               options.request.fps);
  for (const auto& request : requests) {
    // The indexer's per-file memory budget, for each parse (every pose parses the file anew).
    const ScopedParseBudget budget;
    auto pose = answered(format->pose(file.bytes, request), options.file);
    if (const int* code = std::get_if<int>(&pose)) return *code;
    poses.push_back(std::get<Pose>(std::move(pose)));
    name_nodes(poses.back(), format->reference_game);
    name_linked_nodes(poses.back(), linked_names);
    for (const auto& note : poses.back().notes) fmt::print(stderr, "animdex: note: {}\n", note);
  }
  if (!poses.empty() && has_node_names(poses.front()) && !linked_names.linked())
    fmt::print(stderr, "animdex: note: no model beside the file links to this animation, so its nodes have no names "
                       "(a DS animation names none; its model, an NSBMD, does)\n");
  write_poses(out, poses, options.file, format->id, options.format, options.header);
  return kExitOk;
}

namespace {

// The bake in long form, one row per sample (what a spreadsheet or pandas pivots as it likes),
// written an animation at a time as the format makes it, through a TableStream: a whole motion set
// at a high rate is gigabytes of text, of which only one batch of rows is ever held. Each row says
// its animation by slot and name (names repeat: KH2's A000 at slots 0 and 210) and its bone by
// number and by its name: the game's reference's (GNT's hip), or the linked model's (DS's head1).
class BakeWriter {
 public:
  BakeWriter(std::ostream& out, const std::filesystem::path& output, std::string_view game, LinkedNodeNames& linked)
      : game_(game),
        linked_(linked),
        rows_([this, &out](std::string_view text) { file_ ? file_->write(text) : void(out << text); },
              {"slot", "animation", "bone", "bone_name", "channel", "time", "value"}, OutputFormat::csv, true) {
    if (!output.empty()) file_.emplace(output);
  }
  void add(const AnimationCurves& animation) {
    const Cell slot = animation.slot.empty() ? Cell() : Cell(animation.slot);
    const Cell name = animation.animation.empty() ? Cell() : Cell(animation.animation);
    ++animations_;
    for (const auto& channel : animation.channels) {
      const Cell bone_name = bone_name_of(channel, animation.animation);
      for (std::size_t i = 0; i < channel.sample_times.size() && i < channel.sample_values.size(); ++i, ++rows_added_)
        rows_.add({slot, name, channel.node ? Cell(*channel.node) : Cell(), bone_name, channel.channel,
                   as_computed(channel.sample_times[i]), shown_as(channel.sample_values[i], animation.values)});
    }
  }
  // Writes what is left (an empty bake still has its header) and completes the file.
  void finish() {
    rows_.finish();
    if (!file_) return;
    file_->commit();
    report_written(file_->target(), fmt::format("{} rows of {} animation{}", rows_added_, animations_,
                                              animations_ == 1 ? "" : "s"));
  }

 private:
  // A bone's name (an IK helper is no bone of the skeleton; a DS node's name is its model's).
  Cell bone_name_of(const ChannelCurve& channel, std::string_view animation) const {
    if (!channel.node || channel.node_kind == "ik_helper") return Cell();
    if (channel.node_kind == "node") {
      const auto* name = linked_.name(animation, *channel.node);
      return name ? Cell(*name) : Cell();
    }
    if (game_.empty()) return Cell();
    const auto name = ReferenceData::embedded().bone_name(game_, *channel.node);
    return name ? Cell(*name) : Cell();
  }

  std::string_view game_;
  LinkedNodeNames& linked_;
  std::optional<OutputFile> file_;
  TableStream rows_;
  std::size_t animations_ = 0, rows_added_ = 0;
};

}  // namespace

int run_export(const ExportOptions& options, std::ostream& out) {
  if (!options.output.empty() && same_file(options.output, options.file))
    return fail(kExitUsage, fmt::format("{} is the file being read; give another --out", options.output.string()));
  const ScopedParseBudget budget;
  auto input = load_for(options.file, &FormatModule::curves, "export");
  if (const int* code = std::get_if<int>(&input)) return *code;
  const auto& [file, format] = std::get<0>(input);
  if (const int code = unused_selector(*format, options.request.slot, options.request.animation)) return code;
  try {
    LinkedNodeNames linked(options.file, file.bytes, *format, options.request.slot, options.request.animation,
                           options.request.fps);
    BakeWriter writer(out, options.output, format->reference_game, linked);
    auto request = options.request;
    const auto form = parse_rotation_form(options.rotations).value_or(RotationForm::native);
    std::vector<std::string> notes;
    request.each = [&](AnimationCurves&& animation) {
      for (auto& note : convert_rotations(animation, form)) notes.push_back(std::move(note));
      writer.add(animation);
    };
    auto curves = answered(format->curves(file.bytes, request), options.file);
    if (const int* code = std::get_if<int>(&curves)) return *code;
    writer.finish();
    // One line per kind of note, not one per node and animation: a motion set has thousands.
    std::sort(notes.begin(), notes.end());
    notes.erase(std::unique(notes.begin(), notes.end()), notes.end());
    for (std::size_t i = 0; i < notes.size() && i < 5; ++i) fmt::print(stderr, "animdex: note: {}\n", notes[i]);
    if (notes.size() > 5) fmt::print(stderr, "animdex: note: ... and {} more nodes like these\n", notes.size() - 5);
  } catch (const std::invalid_argument& refused) {
    return fail(kExitUsage, fmt::format("{}: --rotations {}: {}", options.file.string(), options.rotations, refused.what()));
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
  return kExitOk;
}

int run_convert(const ConvertOptions& options, std::ostream& /*out: writes only its file*/) {
  if (same_file(options.output, options.input))
    return fail(kExitUsage, fmt::format("{} is the file being read; give another OUTPUT", options.output.string()));
  const ScopedParseBudget budget;
  auto input = load_for(options.input, &FormatModule::convert, "convert");
  if (const int* code = std::get_if<int>(&input)) return *code;
  const auto& [file, format] = std::get<0>(input);
  auto converted = answered(format->convert(file.bytes, options.request), options.input);
  if (const int* code = std::get_if<int>(&converted)) return *code;
  const auto& result = std::get<Converted>(converted);
  try {
    write_file_checked(options.output, result.bytes);
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
  report_written(options.output, result.summary);
  return kExitOk;
}

std::vector<Verb> add_curve_verbs(CLI::App& app) {
  struct PoseVerbOptions {
    PoseOptions pose;
    FormatOption format;
  };
  auto pose_options = std::make_shared<PoseVerbOptions>();
  auto* pose = app.add_subcommand(
      "pose", fmt::format("Evaluate an animation at one or more times: every bone, node or channel ({})",
                          families_that_pose()));
  pose->add_option("file", pose_options->pose.file,
                   "Animation file, or a member of a disc image or archive (IMAGE/path/in/it)")->required();
  pose->add_option("--slot", pose_options->pose.request.slot,
                   "Which animation: " + help_by_family(&FormatHelp::slot));
  pose->add_option("--anim", pose_options->pose.request.animation,
                   fmt::format("Which animation by name: {} (needed where the file has several; the error lists them)",
                               help_by_family(&FormatHelp::animation)));
  auto* pose_time = pose->add_option("-t,--time", pose_options->pose.times, "Time in seconds (repeatable)")
                        ->check(finite_number())->allow_extra_args(false);
  auto* pose_frame = pose->add_option("--frame", pose_options->pose.frames,
                                      "Time as a frame (repeatable): " + help_by_family(&FormatHelp::frame, ", "))
                         ->check(finite_number())->allow_extra_args(false);
  pose_time->excludes(pose_frame);
  pose->add_option("--fps", pose_options->pose.request.fps,
                   fmt::format("Frames per second for --frame (default: the format's own; {})",
                               help_by_family(&FormatHelp::fps)))->check(positive_number());
  pose->add_flag("--world", pose_options->pose.world,
                 "Each joint's world position and matrix on the animation's skeleton (DS and KH2 motions, LightWave "
                 "motions; a model file: its bind pose); without --time/--frame, every frame");
  pose->add_option("--model", pose_options->pose.model,
                   "With --world: the model (file or member) whose skeleton to use (default: the one beside the file "
                   "the link rule finds)");
  add_format_option(*pose, pose_options->format);
  add_examples(*pose, {"animdex pose files/chr/sas/0000.mot --slot 0 --time 0.25",
                       "animdex pose obj/P_EX100.mset --slot 0 --frame 12 --format json",
                       "animdex pose data/door.nsbca --anim open --frame 3",
                       "animdex pose scenes/cam.mot --frame 48 --frame 49 --format csv",
                       "animdex pose obj/W_EX010_R.mset --slot 0 --world --model obj/W_EX010.mdlx --frame 3"});

  auto export_options = std::make_shared<ExportOptions>();
  auto* export_command = app.add_subcommand(
      "export", "Sample every animated channel and write CSV in long form (slot, animation, bone, bone_name, channel, "
                "time, value), "
                "or write the animations with their skeleton as glTF 2.0 (--gltf) for Blender and other tools");
  export_command->add_option("file", export_options->file, "Animation file, or a member of a disc image or archive")
      ->required();
  auto* bake = export_command->add_option("--bake", export_options->request.samples_per_second,
                                          "CSV: samples per second")->check(positive_number());
  auto* gltf = export_command->add_option("--gltf", export_options->gltf,
                                          "glTF 2.0 file to write (OUT.glb binary, OUT.gltf JSON): the skeleton as "
                                          "nodes with a skin, each animation sampled per frame");
  bake->excludes(gltf);
  export_command->add_option("--rotations", export_options->rotations,
                             "CSV: rotations as the file stores them (native: DS matrix cells R.m00..R.m22, KH2 Euler "
                             "R.x..R.z), as unit quaternions (quaternion: R.qx R.qy R.qz R.qw) or as Euler angles "
                             "(euler: R.ex R.ey R.ez, radians, X first)")
      ->check(CLI::IsMember({"native", "quaternion", "euler"}))->capture_default_str()->excludes(gltf);
  export_command->add_option("--model", export_options->model,
                             "--gltf: the model (file or member) whose skeleton to use (default: the one beside the "
                             "file the link rule finds)")->needs(gltf);
  export_command->add_option("--rate", export_options->rate,
                             "--gltf: samples per second (default: the source's own: DS 60, KH2 the motion's FPS, "
                             "LightWave 30)")->check(positive_number())->needs(gltf);
  export_command->add_option("--slot", export_options->request.slot, "Only this animation (as for pose)");
  export_command->add_option("--anim", export_options->request.animation, "Only this animation, by name");
  export_command->add_option("--fps", export_options->request.fps,
                             fmt::format("The file's frame rate where its keys are frames it does not time ({})",
                                         help_by_family(&FormatHelp::fps)))->check(positive_number());
  export_command->add_option("-o,--out", export_options->output, "CSV file to write (default: standard output)")
      ->excludes(gltf);
  add_examples(*export_command, {"animdex export scenes/cam.mot --bake 60 --out cam.csv",
                                 "animdex export data/lugia.nsbca --gltf lugia.glb",
                                 "animdex export obj/P_EX100.mset --gltf sora.glb --model obj/P_EX100.mdlx",
                                 "animdex export files/chr/sas/0000.mot --slot 0 --bake 60"});

  auto convert_options = std::make_shared<ConvertOptions>();
  auto* convert = app.add_subcommand(
      "convert", "Convert a Kuper ASCII export to an LWMO motion, or a LightWave file between versions 1 and 3");
  convert->add_option("input", convert_options->input, "Kuper ASCII or LWMO/LWEN file")
      ->required();
  convert->add_option("output", convert_options->output, "LWMO/LWEN file to write")->required();
  convert->add_option("--version", convert_options->request.version,
                      "Version of the format to write (LightWave: 1 or 3; default: the other one, 1 for Kuper)");
  convert->add_option("--fps", convert_options->request.fps, "Frames per second between frames (v1) and seconds (v3)")
      ->check(positive_number())->capture_default_str();
  convert->add_option("--axis", convert_options->request.mappings,
                      "Kuper axis mapping NAME=CHANNEL[:SCALE], e.g. VNS=2:-1 (default: header order, VNS, VTilt "
                      "and VRoll reversed)");
  add_examples(*convert, {"animdex convert rig_take3.txt rig_take3.mot", "animdex convert cam.mot cam_v3.mot --version 3"});

  return {{pose,
           [pose_options](std::ostream& out) {
             if (pose_options->pose.times.empty() && pose_options->pose.frames.empty() && !pose_options->pose.world)
               return fail(kExitUsage, "pose needs --time SECONDS or --frame F (with --world: every frame without them)");
             pose_options->pose.format = pose_options->format.value();
             pose_options->pose.header = !pose_options->format.no_header;
             return run_pose(pose_options->pose, out);
           }},
          {export_command,
           [export_options, bake](std::ostream& out) {
             if (!export_options->gltf.empty()) return run_export_gltf(*export_options, out);
             if (bake->count() == 0)
               return fail(kExitUsage, "export needs --bake RATE (CSV) or --gltf OUT.glb|OUT.gltf");
             return run_export(*export_options, out);
           }},
          {convert, [convert_options](std::ostream& out) { return run_convert(*convert_options, out); }}};
}

}  // namespace animdex
