#include <CLI/CLI.hpp>
#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <ostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/errors.h"
#include "cli/verb.h"
#include "formats/lightwave/lw_evaluate.h"
#include "formats/lightwave/lw_parser.h"
#include "formats/lightwave/lw_writer.h"
#include "formats/registry.h"
#include "core/parse_budget.h"
#include "indexer/file_reader.h"
#include "indexer/rows.h"
#include "output/output_file.h"
#include "reference/reference_data.h"

namespace animdex {

namespace {

using namespace lightwave;

// A verb's input file, whole: within the indexer's --max-file-size default (a larger file is an
// error, not a silently cut one), never blocking on a FIFO (read_file_bytes).
FileBytes read_input(const std::filesystem::path& path) {
  auto file = read_file_bytes(path, kDefaultMaxFileSize + 1);
  if (file.error.empty() && file.file_size > kDefaultMaxFileSize)
    file.error = fmt::format("file of {} bytes is over the {}-byte limit for one animation file", file.file_size,
                             kDefaultMaxFileSize);
  return file;
}

// Reads and parses a LightWave file, or explains (on stderr) why it cannot.
std::optional<LwFile> load_lightwave(const std::filesystem::path& path, int& exit_code) {
  auto file = read_input(path);
  if (!file.error.empty()) {
    exit_code = fail(kExitFatal, fmt::format("{}: {}", path.string(), file.error));
    return std::nullopt;
  }
  const auto* format = detect_format(file.bytes, file.file_size);
  if (!format || (format->id != "lw_mot" && format->id != "lw_env")) {
    exit_code = fail(kExitUsage, fmt::format("{}: is {}; pose reads LightWave motions and envelopes (lw_mot, lw_env) and NSBCA "
                                             "(nsbca), export and convert read LightWave",
                                             path.string(), format ? std::string(format->id) : "not a known format"));
    return std::nullopt;
  }
  auto parsed = parse_lw(file.bytes);
  if (!parsed) {
    exit_code = fail(kExitFileErrors, fmt::format("{}: {}", path.string(), parsed.error().message()));
    return std::nullopt;
  }
  return std::move(parsed).value();
}

// The file's own time unit: frames for v1 (at `fps`), seconds for v3.
double native_time(const LwFile& file, double seconds, double fps) { return file.version == 1 ? seconds * fps : seconds; }

}  // namespace

int run_pose(const PoseOptions& options, std::ostream& out) {
  const ScopedParseBudget budget;  // the indexer's per-file memory budget, for every verb that parses
  int code = kExitOk;
  {
    auto bytes = read_input(options.file);
    const auto* format = bytes.error.empty() ? detect_format(bytes.bytes, bytes.file_size) : nullptr;
    if (format && format->id == "nsbca") return run_nsbca_pose(options, bytes.bytes, out);
  }
  auto file = load_lightwave(options.file, code);
  if (!file) return code;
  const double seconds = options.seconds ? *options.seconds : *options.frame / options.fps;
  const double time = native_time(*file, seconds, options.fps);
  ResultTable table{{"channel", "index", "value"}, {}};
  for (const auto& channel : file->channels)
    table.rows.push_back({channel_name(file->kind, channel.index), std::int64_t{channel.index},
                          evaluate(channel, time)});
  write_table(out, table, options.format);
  return kExitOk;
}

int run_export(const ExportOptions& options, std::ostream& out) {
  const ScopedParseBudget budget;
  int code = kExitOk;
  auto file = load_lightwave(options.file, code);
  if (!file) return code;
  if (!(options.bake_fps > 0)) return fail(kExitUsage, "--bake needs a positive rate");
  double first = INFINITY, last = -INFINITY;
  for (const auto& channel : file->channels) {
    first = std::min(first, channel.keys.front().time);
    last = std::max(last, channel.keys.back().time);
  }
  // Native times back to seconds, then one sample every 1/bake_fps s from the first key to the last.
  const double to_seconds = file->version == 1 ? 1.0 / options.fps : 1.0;
  const double start = first * to_seconds, end = last * to_seconds;
  const auto samples = static_cast<std::int64_t>(std::floor((end - start) * options.bake_fps + 1e-9)) + 1;
  if (samples > 10'000'000) return fail(kExitUsage, fmt::format("{} samples is too many; lower --bake", samples));
  ResultTable table{{"sample", "seconds"}, {}};
  for (const auto& channel : file->channels) table.columns.push_back(channel_name(file->kind, channel.index));
  for (std::int64_t i = 0; i < samples; ++i) {
    const double seconds = start + static_cast<double>(i) / options.bake_fps;
    std::vector<Cell> row{i, seconds};
    for (const auto& channel : file->channels) row.emplace_back(evaluate(channel, native_time(*file, seconds, options.fps)));
    table.rows.push_back(std::move(row));
  }
  if (options.output.empty()) {
    write_table(out, table, OutputFormat::csv);
    return kExitOk;
  }
  std::ostringstream text;
  write_table(text, table, OutputFormat::csv);
  try {
    write_file_checked(options.output, text.view());
  } catch (const std::exception& error) {
    return fail(kExitFatal, error.what());
  }
  return kExitOk;
}

int run_convert(const ConvertOptions& options, std::ostream& out) {
  const ScopedParseBudget budget;
  auto input = read_input(options.input);
  if (!input.error.empty()) return fail(kExitFatal, fmt::format("{}: {}", options.input.string(), input.error));
  const auto* format = detect_format(input.bytes, input.file_size);
  LwFile converted;
  if (format && format->id == "lw_kuper") {
    auto kuper = parse_kuper(input.bytes);
    if (!kuper) return fail(kExitFileErrors, fmt::format("{}: {}", options.input.string(), kuper.error().message()));
    auto mapping = default_kuper_mapping(kuper.value());
    for (const auto& spec : options.axes) {  // NAME=CHANNEL[:SCALE]
      const auto equals = spec.find('=');
      const auto colon = spec.find(':', equals == std::string::npos ? 0 : equals);
      const auto channel = equals == std::string::npos ? std::nullopt
                                                        : parse_integer(spec.substr(equals + 1, colon - equals - 1));
      char* end = nullptr;
      const double scale = colon == std::string::npos ? 1.0 : std::strtod(spec.c_str() + colon + 1, &end);
      if (!channel || (colon != std::string::npos && end != spec.c_str() + spec.size()))
        return fail(kExitUsage, fmt::format("--axis {}: expected NAME=CHANNEL or NAME=CHANNEL:SCALE", spec));
      const std::string name = spec.substr(0, equals);
      std::erase_if(mapping, [&](const AxisMapping& m) { return m.axis == name || m.channel == *channel; });
      mapping.push_back({name, static_cast<int>(*channel), scale});
    }
    try {
      converted = kuper_to_motion(kuper.value(), mapping);
    } catch (const std::invalid_argument& error) {
      return fail(kExitUsage, error.what());
    }
    if (options.version.value_or(1) == 3) {
      std::string why;
      auto v3 = convert_version(converted, 3, options.fps, &why);
      if (!v3) return fail(kExitUsage, why);
      converted = *v3;
    }
  } else {
    int code = kExitOk;
    auto file = load_lightwave(options.input, code);
    if (!file) return code;
    std::string why;
    auto other = convert_version(*file, options.version.value_or(file->version == 1 ? 3 : 1), options.fps, &why);
    if (!other) return fail(kExitUsage, fmt::format("{} cannot be written as version {}: {}", options.input.string(),
                                                    options.version.value_or(file->version == 1 ? 3 : 1), why));
    converted = *other;
  }
  try {
    write_file_checked(options.output, write_lw(converted));
  } catch (const std::exception& error) {
    return fail(kExitFatal, error.what());
  }
  out << fmt::format("wrote {} (LWMO version {}, {} channels, {} keys each)\n", options.output.string(),
                     converted.version, converted.channels.size(), converted.channels.front().keys.size());
  return kExitOk;
}

std::vector<Verb> add_curve_verbs(CLI::App& app) {
  struct PoseVerbOptions {
    PoseOptions pose;
    FormatOption format;
  };
  auto pose_options = std::make_shared<PoseVerbOptions>();
  auto* pose = app.add_subcommand(
      "pose", "Evaluate a LightWave motion/envelope at one time, or every node of an NSBCA animation at one frame");
  pose->add_option("file", pose_options->pose.file, "LWMO or LWEN file (version 1 or 3), or an NSBCA file")
      ->required()->check(CLI::ExistingFile);
  pose->add_option("--anim", pose_options->pose.animation, "NSBCA: animation name (default: the first)");
  auto* pose_time = pose->add_option("-t,--time", pose_options->pose.seconds, "Time in seconds")->check(finite_number());
  auto* pose_frame = pose->add_option("--frame", pose_options->pose.frame,
                                      "Time as a frame number at --fps (NSBCA: an integer frame, 0-based)")
                         ->check(finite_number());
  pose_time->excludes(pose_frame);
  pose->add_option("--fps", pose_options->pose.fps, "Frames per second (v1 keys are frames; v3 stores none)")
      ->check(positive_number())->capture_default_str();
  add_format_option(*pose, pose_options->format);
  add_examples(*pose, {"animdex pose scenes/cam.mot --frame 48 --format json",
                       "animdex pose data/door.nsbca --anim open --frame 3"});

  auto export_options = std::make_shared<ExportOptions>();
  auto* export_command = app.add_subcommand("export", "Sample a LightWave file's curves and write them as CSV");
  export_command->add_option("file", export_options->file, "LWMO or LWEN file")->required()->check(CLI::ExistingFile);
  export_command->add_option("--bake", export_options->bake_fps, "Samples per second")
      ->required()->check(positive_number());
  export_command->add_option("--fps", export_options->fps, "The file's frame rate (v1 keys are frames)")
      ->check(positive_number())->capture_default_str();
  export_command->add_option("-o,--out", export_options->output, "CSV file to write (default: standard output)");
  add_examples(*export_command, {"animdex export scenes/cam.mot --bake 60 --out cam.csv"});

  auto convert_options = std::make_shared<ConvertOptions>();
  auto* convert = app.add_subcommand(
      "convert", "Convert a Kuper ASCII export to an LWMO motion, or a LightWave file between versions 1 and 3");
  convert->add_option("input", convert_options->input, "Kuper ASCII or LWMO/LWEN file")
      ->required()->check(CLI::ExistingFile);
  convert->add_option("output", convert_options->output, "LWMO/LWEN file to write")->required();
  convert->add_option("--version", convert_options->version, "LightWave version to write: 1 or 3")
      ->check(CLI::IsMember({1, 3}));
  convert->add_option("--fps", convert_options->fps, "Frames per second between frames (v1) and seconds (v3)")
      ->check(positive_number())->capture_default_str();
  convert->add_option("--axis", convert_options->axes,
                      "Kuper axis mapping NAME=CHANNEL[:SCALE], e.g. VNS=2:-1 (default: header order, VNS, VTilt "
                      "and VRoll reversed)");
  add_examples(*convert, {"animdex convert rig_take3.txt rig_take3.mot", "animdex convert cam.mot cam_v3.mot --version 3"});

  return {{pose,
           [pose_options](std::ostream& out) {
             if (!pose_options->pose.seconds && !pose_options->pose.frame)
               return fail(kExitUsage, "pose needs --time SECONDS or --frame F");
             pose_options->pose.format = pose_options->format.value();
             return run_pose(pose_options->pose, out);
           }},
          {export_command, [export_options](std::ostream& out) { return run_export(*export_options, out); }},
          {convert, [convert_options](std::ostream& out) { return run_convert(*convert_options, out); }}};
}

}  // namespace animdex
