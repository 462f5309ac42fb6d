#include <CLI/CLI.hpp>
#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <ostream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <variant>

#include "cli/commands.h"
#include "output/json_text.h"
#include "cli/errors.h"
#include "core/number_text.h"
#include "cli/verb.h"
#include "formats/registry.h"
#include "core/parse_budget.h"
#include "indexer/file_reader.h"
#include "indexer/member_input.h"
#include "indexer/rows.h"
#include "output/json_rows.h"
#include "output/output_file.h"

namespace animdex {

namespace {

// A verb's input, whole: a file or a member of a disc image or archive (`gnt4.iso/fpack/...`),
// within the indexer's --max-file-size default (a larger one is an error, not a silently cut one),
// never blocking on a FIFO (read_file_bytes).
InputBytes read_input(const std::filesystem::path& path) { return read_input_bytes(path, kDefaultMaxFileSize); }

// The formats that have a capability, for the message that says which files a verb reads:
// "lw_mot, lw_env and nsbca", every one the registry has, in its order.
template <typename Capability>
std::string formats_with(Capability FormatModule::*capability) {
  std::vector<std::string_view> ids;
  for (const auto& format : registered_formats())
    if (format.*capability) ids.push_back(format.id);
  std::string text;
  for (std::size_t i = 0; i < ids.size(); ++i)
    text += fmt::format("{}{}", i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ", ids[i]);
  return text;
}

// The container a path is (a disc image or archive, or a member that is one), else nullptr. A
// FIFO or device is never opened.
const ContainerModule* container_at(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error)) return nullptr;
  const auto input = open_input(path);
  const auto* opened = std::get_if<OpenedInput>(&input);
  return opened ? input_container(*opened) : nullptr;
}

// Why `verb` does not read this file: what it is, and every format the verb reads.
template <typename Capability>
std::string not_readable(const std::filesystem::path& path, const FormatModule* format,
                         const ContainerModule* container, Capability FormatModule::*capability,
                         std::string_view verb) {
  const auto formats = formats_with(capability);
  if (container)
    return fmt::format("{0}: is a disc image or archive ({1}), not an animation file; {2} reads {3} (give a member "
                       "as {0}/MEMBER; `animdex ls {0}` lists them)",
                       path.string(), container->id, verb, formats);
  const auto what = format ? fmt::format("{}, which {} does not read", format->id, verb) : "not of a known format";
  return fmt::format("{}: is {}; {} reads {} (`animdex formats` lists every format)", path.string(), what, verb,
                     formats);
}

// The input's bytes and the module that can do `verb` on them, or the exit code of why not.
template <typename Capability>
std::variant<std::pair<InputBytes, const FormatModule*>, int> load_for(const std::filesystem::path& path,
                                                                       Capability FormatModule::*capability,
                                                                       std::string_view verb) {
  auto file = read_input(path);
  if (!file.error.empty()) {
    // A disc image is over the size limit for one file: say what it is rather than how big.
    if (const auto* container = container_at(path))
      return fail(kExitUsage, not_readable(path, nullptr, container, capability, verb));
    std::error_code missing;
    return fail(std::filesystem::exists(path, missing) ? kExitFatal : kExitUsage, fmt::format("{}: {}", path.string(), file.error));
  }
  const auto* format = detect_format(file.bytes, file.bytes.size());
  if (!format || !(format->*capability))  // a container is named first, as `info` names it (an FPK can look like a MOT)
    return fail(kExitUsage, not_readable(path, format, container_at(path), capability, verb));
  return std::pair{std::move(file), format};
}

// The capability's answer, or the exit code of its error (usage or a broken file).
template <typename T>
std::variant<T, int> answered(Answer<T>&& answer, const std::filesystem::path& path) {
  if (auto* error = std::get_if<CapabilityError>(&answer))
    return fail(error->kind == CapabilityError::Kind::usage ? kExitUsage : kExitFileErrors,
                fmt::format("{}: {}", path.string(), error->message));
  return std::get<T>(std::move(answer));
}

Cell pose_cell(const PoseValue& value) {
  if (const auto* number = std::get_if<std::int64_t>(&value)) return *number;
  if (const auto* real = std::get_if<double>(&value)) return as_computed(*real);
  if (const auto* text = std::get_if<std::string>(&value)) return *text;
  return Cell();
}

nlohmann::ordered_json pose_json(const PoseValue& value) {
  if (const auto* numbers = std::get_if<std::vector<double>>(&value)) {
    auto array = nlohmann::ordered_json::array();
    for (const double number : *numbers) array.push_back(json_cell(as_computed(number)));
    return array;
  }
  return json_cell(pose_cell(value));
}

// The name of component `index` of a vector of `size` numbers: x y z w, or a matrix's row and
// column (R.m00 .. R.m22), or the position.
std::string component_name(std::size_t index, std::size_t size) {
  if (size <= 4) return std::string(1, "xyzw"[index]);
  if (size == 9 || size == 16) {
    const std::size_t side = size == 9 ? 3 : 4;
    return fmt::format("m{}{}", index / side, index % side);
  }
  return std::to_string(index);
}

// Tables, CSV and markdown get one column per component (`T.x`, `R.m01`), so a spreadsheet reads
// them as numbers; a row without the vector (a node left in its bind pose) has empty cells there.
ResultTable pose_table(const Pose& pose) {
  std::vector<std::size_t> sizes(pose.columns.size(), 0);
  std::vector<bool> vectors(pose.columns.size(), false);
  for (std::size_t c = 0; c < pose.vector_sizes.size() && c < sizes.size(); ++c) {
    sizes[c] = pose.vector_sizes[c];
    vectors[c] = sizes[c] > 0;
  }
  for (const auto& row : pose.rows)
    for (std::size_t c = 0; c < row.size(); ++c)
      if (const auto* numbers = std::get_if<std::vector<double>>(&row[c])) {
        vectors[c] = true;
        sizes[c] = std::max(sizes[c], numbers->size());
      }
  ResultTable table{{}, {}};
  for (std::size_t c = 0; c < pose.columns.size(); ++c) {
    if (!vectors[c]) table.columns.push_back(pose.columns[c]);
    for (std::size_t i = 0; vectors[c] && i < sizes[c]; ++i)
      table.columns.push_back(pose.columns[c] + "." + component_name(i, sizes[c]));
  }
  for (const auto& row : pose.rows) {
    auto& cells = table.rows.emplace_back();
    for (std::size_t c = 0; c < row.size(); ++c) {
      const auto* numbers = std::get_if<std::vector<double>>(&row[c]);
      if (!vectors[c]) cells.push_back(pose_cell(row[c]));
      for (std::size_t i = 0; vectors[c] && i < sizes[c]; ++i)
        cells.push_back(numbers && i < numbers->size() ? Cell(as_computed((*numbers)[i])) : Cell());
    }
  }
  return table;
}

// JSON keeps vectors as arrays and puts what was evaluated beside the rows; the other formats
// show one table with a column per component.
void write_pose(std::ostream& out, const Pose& pose, const std::filesystem::path& path, OutputFormat format,
                bool header) {
  if (format == OutputFormat::json && !pose.about.empty()) {
    nlohmann::ordered_json json;
    json["file"] = path.string();
    for (const auto& [name, value] : pose.about) json[name] = pose_json(value);
    auto& rows = json[pose.rows_name] = nlohmann::ordered_json::array();
    for (const auto& row : pose.rows) {
      nlohmann::ordered_json item;
      for (std::size_t c = 0; c < pose.columns.size(); ++c) item[pose.columns[c]] = pose_json(row[c]);
      rows.push_back(std::move(item));
    }
    out << json_text(json) << '\n';
    return;
  }
  write_table(out, pose_table(pose), format, header);
}

}  // namespace

int run_pose(const PoseOptions& options, std::ostream& out) {
  const ScopedParseBudget budget;  // the indexer's per-file memory budget, for every verb that parses
  auto input = load_for(options.file, &FormatModule::pose, "pose");
  if (const int* code = std::get_if<int>(&input)) return *code;
  const auto& [file, format] = std::get<0>(input);
  auto pose = answered(format->pose(file.bytes, options.request), options.file);
  if (const int* code = std::get_if<int>(&pose)) return *code;
  write_pose(out, std::get<Pose>(pose), options.file, options.format, options.header);
  return kExitOk;
}

int run_export(const ExportOptions& options, std::ostream& out) {
  const ScopedParseBudget budget;
  auto input = load_for(options.file, &FormatModule::bake, "export");
  if (const int* code = std::get_if<int>(&input)) return *code;
  const auto& [file, format] = std::get<0>(input);
  auto table = answered(format->bake(file.bytes, options.request), options.file);
  if (const int* code = std::get_if<int>(&table)) return *code;
  std::ostringstream text;
  write_table(options.output.empty() ? out : text, std::get<ResultTable>(table), OutputFormat::csv);
  if (options.output.empty()) return kExitOk;
  try {
    write_file_checked(options.output, text.view());
  } catch (const std::exception& error) {
    return fail(kExitFatal, error.what());
  }
  return kExitOk;
}

int run_convert(const ConvertOptions& options, std::ostream& out) {
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
    return fail(kExitFatal, error.what());
  }
  out << fmt::format("wrote {} ({})\n", options.output.string(), result.summary);
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
      ->required();
  pose->add_option("--anim", pose_options->pose.request.animation, "NSBCA: animation name (default: the first)");
  auto* pose_time = pose->add_option("-t,--time", pose_options->pose.request.seconds, "Time in seconds")->check(finite_number());
  auto* pose_frame = pose->add_option("--frame", pose_options->pose.request.frame,
                                      "Time as a frame number at --fps (NSBCA: an integer frame, 0-based)")
                         ->check(finite_number());
  pose_time->excludes(pose_frame);
  pose->add_option("--fps", pose_options->pose.request.fps, "Frames per second (v1 keys are frames; v3 stores none)")
      ->check(positive_number())->capture_default_str();
  add_format_option(*pose, pose_options->format);
  add_examples(*pose, {"animdex pose scenes/cam.mot --frame 48 --format json",
                       "animdex pose data/door.nsbca --anim open --frame 3"});

  auto export_options = std::make_shared<ExportOptions>();
  auto* export_command = app.add_subcommand("export", "Sample a LightWave file's curves and write them as CSV");
  export_command->add_option("file", export_options->file, "LWMO or LWEN file")->required();
  export_command->add_option("--bake", export_options->request.samples_per_second, "Samples per second")
      ->required()->check(positive_number());
  export_command->add_option("--fps", export_options->request.fps, "The file's frame rate (v1 keys are frames)")
      ->check(positive_number())->capture_default_str();
  export_command->add_option("-o,--out", export_options->output, "CSV file to write (default: standard output)");
  add_examples(*export_command, {"animdex export scenes/cam.mot --bake 60 --out cam.csv"});

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
             if (!pose_options->pose.request.seconds && !pose_options->pose.request.frame)
               return fail(kExitUsage, "pose needs --time SECONDS or --frame F");
             pose_options->pose.format = pose_options->format.value();
             pose_options->pose.header = !pose_options->format.no_header;
             return run_pose(pose_options->pose, out);
           }},
          {export_command, [export_options](std::ostream& out) { return run_export(*export_options, out); }},
          {convert, [convert_options](std::ostream& out) { return run_convert(*convert_options, out); }}};
}

}  // namespace animdex
