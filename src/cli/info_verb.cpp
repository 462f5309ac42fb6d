#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <array>
#include <map>
#include <optional>
#include <memory>
#include <type_traits>
#include <utility>
#include <variant>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sys/stat.h>

#include "cli/commands.h"
#include "output/json_text.h"
#include "cli/errors.h"
#include "cli/input_loading.h"
#include "cli/verb.h"
#include "formats/registry.h"
#include "containers/container.h"
#include "indexer/member_input.h"
#include "indexer/rows.h"
#include "core/number_text.h"
#include "db/sql_runner.h"
#include "output/json_rows.h"

namespace animdex {

namespace {

// The number rule as the index stores it (core/number_text.h): header numbers and float32 tracks'
// keys under the float32 rule, other tracks' keys (DS fixed point, LightWave text) as they are.
double stored(double value, bool float32 = true) { return float32 ? as_stored(value) : value; }

Cell stored_cell(const std::optional<double>& value, bool float32 = true) {
  return value ? Cell(stored(*value, float32)) : Cell();
}

ResultTable animations_table(const FileRow& file) {
  ResultTable table{{"animation", "slot", "motion_id", "motion_hex", "name", "play_speed", "end_time", "frame_count",
                     "tracks", "keys", "content_hash"},
                    {}};
  for (std::size_t a = 0; a < file.model.animations.size(); ++a) {
    const auto& animation = file.model.animations[a];
    const auto& row = file.animations[a];
    table.rows.push_back({static_cast<std::int64_t>(a), to_cell(animation.slot), to_cell(animation.motion_id),
                          animation.motion_id ? Cell(fmt::format("0x{:04X}", *animation.motion_id)) : Cell(),
                          to_cell(row.name), stored_cell(animation.play_speed), stored_cell(animation.end_time),
                          to_cell(animation.frame_count), static_cast<std::int64_t>(animation.tracks.size()),
                          row.key_count, row.content_hash});
  }
  return table;
}

// A format row's value as shown: a reference to an animation is its position in the Animations table.
Cell format_cell(const model::RowValue& value) {
  return std::visit([](const auto& held) -> Cell {
    using T = std::decay_t<decltype(held)>;
    if constexpr (std::is_same_v<T, model::AnimationRef>) return static_cast<std::int64_t>(held.animation);
    else if constexpr (std::is_same_v<T, model::MotionNameOf>) return Cell();  // resolved by process_file
    else if constexpr (std::is_same_v<T, model::ExactNumber>) return held.value;
    else if constexpr (std::is_same_v<T, double>) return as_stored(held);
    else return held;
  }, value);
}

// The file's rows of each of its format's tables (KH2 slots, NSBCA node states, ...), as stored:
// one table per database table, in the order the format wrote them.
std::vector<std::pair<std::string, ResultTable>> format_tables(const FileRow& file) {
  std::vector<std::pair<std::string, ResultTable>> tables;
  for (const auto& row : file.model.format_rows) {
    auto found = std::find_if(tables.begin(), tables.end(), [&](const auto& named) { return named.first == row.table; });
    if (found == tables.end()) {
      ResultTable table;
      if (row.animation) table.columns.push_back("animation");
      for (const auto& [column, value] : row.columns) table.columns.emplace_back(column);
      found = tables.insert(tables.end(), {std::string(row.table), std::move(table)});
    }
    auto& cells = found->second.rows.emplace_back();
    if (row.animation) cells.push_back(static_cast<std::int64_t>(*row.animation));
    for (const auto& [column, value] : row.columns) cells.push_back(format_cell(value));
  }
  return tables;
}

ResultTable tracks_table(const FileRow& file) {
  ResultTable table{{"animation", "slot", "track", "bone_id", "bone_hex", "bone_name", "flags", "track_flags",
                     "channels", "encoding", "keys", "total_time"},
                    {}};
  for (std::size_t a = 0; a < file.model.animations.size(); ++a) {
    const auto& animation = file.model.animations[a];
    for (std::size_t t = 0; t < animation.tracks.size(); ++t) {
      const auto& track = animation.tracks[t];
      table.rows.push_back({static_cast<std::int64_t>(a), to_cell(animation.slot), static_cast<std::int64_t>(t),
                            to_cell(track.bone_id),
                            track.bone_id ? Cell(fmt::format("0x{:02X}", *track.bone_id)) : Cell(),
                            to_cell(file.animations[a].tracks[t].bone_name),
                            fmt::format("0x{:04X}", track.flags), fmt::format("0x{:02X}", track.track_flags),
                            track.channels, track.value_encoding, static_cast<std::int64_t>(track.keys.size()),
                            stored(track.total_time, model::float32_values(track.value_encoding))});
    }
  }
  return table;
}

ResultTable keys_table(const FileRow& file) {
  ResultTable table{{"slot", "track", "bone_id", "key", "time", "frame", "x", "y", "z", "w"}, {}};
  for (const auto& animation : file.model.animations)
    for (std::size_t t = 0; t < animation.tracks.size(); ++t)
      for (std::size_t k = 0; k < animation.tracks[t].keys.size(); ++k) {
        const auto& key = animation.tracks[t].keys[k];
        const bool float32 = model::float32_values(animation.tracks[t].value_encoding);
        table.rows.push_back({to_cell(animation.slot), static_cast<std::int64_t>(t),
                              to_cell(animation.tracks[t].bone_id), static_cast<std::int64_t>(k),
                              stored(key.time, float32), to_cell(key.frame), stored_cell(key.x, float32),
                              stored_cell(key.y, float32), stored_cell(key.z, float32), stored_cell(key.w, float32)});
      }
  return table;
}

// Numbers under the project's precision rule (core/number_text.h), absent values as null.
template <typename T>
nlohmann::ordered_json json_optional(const std::optional<T>& value, bool float32 = true) {
  if (!value) return nullptr;
  if constexpr (std::is_floating_point_v<T>) return stored(*value, float32);
  else return *value;
}

// A header fact as JSON: a number when its text is one (`slot_count: 512`), else the text.
nlohmann::ordered_json property_json(const std::string& text) {
  const auto typed = infer_parameters({{"", text}}).front().second;
  if (std::holds_alternative<std::monostate>(typed)) return text;  // "NULL" is a name here, not a null
  return json_cell(typed);
}

nlohmann::ordered_json to_json(const FileRow& file) {
  nlohmann::ordered_json json;
  json["path"] = file.path;
  json["format"] = file.format;
  json["size"] = file.size;
  json["status"] = status_name(file.status);
  json["error"] = json_optional(file.error);
  json["content_hash"] = json_optional(file.content_hash);
  auto& properties = json["properties"] = nlohmann::ordered_json::object();
  for (const auto& property : file.model.properties) properties[property.name] = property_json(property.value);
  auto& animations = json["animations"] = nlohmann::ordered_json::array();
  for (std::size_t a = 0; a < file.model.animations.size(); ++a) {
    const auto& animation = file.model.animations[a];
    const auto& row = file.animations[a];
    nlohmann::ordered_json item;
    item["animation"] = a;
    item["slot"] = json_optional(animation.slot);
    item["motion_id"] = json_optional(animation.motion_id);
    item["name"] = json_optional(row.name);
    item["play_speed"] = json_optional(animation.play_speed);
    item["end_time"] = json_optional(animation.end_time);
    item["frame_count"] = json_optional(animation.frame_count);
    item["content_hash"] = row.content_hash;
    auto& tracks = item["tracks"] = nlohmann::ordered_json::array();
    for (std::size_t t = 0; t < animation.tracks.size(); ++t) {
      const auto& track = animation.tracks[t];
      nlohmann::ordered_json track_json;
      track_json["bone_id"] = json_optional(track.bone_id);
      track_json["bone_name"] = json_optional(row.tracks[t].bone_name);
      track_json["flags"] = track.flags;
      track_json["track_flags"] = track.track_flags;
      track_json["channels"] = track.channels;
      track_json["value_encoding"] = track.value_encoding;
      const bool float32 = model::float32_values(track.value_encoding);
      track_json["total_time"] = stored(track.total_time, float32);
      track_json["content_hash"] = row.tracks[t].content_hash.text();
      auto& keys = track_json["keys"] = nlohmann::ordered_json::array();
      for (const auto& key : track.keys)
        keys.push_back({{"time", stored(key.time, float32)}, {"frame", json_optional(key.frame)},
                        {"x", json_optional(key.x, float32)}, {"y", json_optional(key.y, float32)},
                        {"z", json_optional(key.z, float32)}, {"w", json_optional(key.w, float32)}});
      tracks.push_back(std::move(track_json));
    }
    animations.push_back(std::move(item));
  }
  for (const auto& [name, table] : format_tables(file)) json["format_tables"][name] = json_rows(table);
  return json;
}

void write_section(std::ostream& out, const std::string& title, const ResultTable& table, OutputFormat format) {
  out << (format == OutputFormat::markdown ? "\n## " : "\n") << title << (format == OutputFormat::markdown ? "\n\n" : "\n");
  write_table(out, table, format);
}

}  // namespace

// A disc image or archive: what it is and how many members it lists (`ls` lists them).
std::optional<int> container_info(const InfoOptions& options, std::ostream& out) {
  auto input = open_input(options.file);
  if (!std::holds_alternative<OpenedInput>(input)) return std::nullopt;
  const auto& opened = std::get<OpenedInput>(input);
  const ContainerModule* container = input_container(opened);
  if (!container) return std::nullopt;
  const auto listing = list_input(opened);
  const auto* error = std::get_if<std::string>(&listing);
  ResultTable summary{{"field", "value"}, {}};
  summary.rows.push_back({std::string("path"), options.file.string()});
  summary.rows.push_back({std::string("format"), std::string(container->id)});
  summary.rows.push_back({std::string("size"), static_cast<std::int64_t>(opened.bytes->size())});
  summary.rows.push_back({std::string("status"), std::string(error ? "error" : "ok")});
  if (error) summary.rows.push_back({std::string("error"), *error});
  else summary.rows.push_back({std::string("members"), static_cast<std::int64_t>(std::get<InputListing>(listing).members.size())});
  write_table(out, summary, options.format == OutputFormat::json ? OutputFormat::json : options.format);
  if (error) return fail(kExitFileErrors, fmt::format("{}: {}", options.file.string(), *error));
  std::fprintf(stderr, "animdex: %s is a %s container; `animdex ls %s` lists its members\n", options.file.c_str(),
               std::string(container->id).c_str(), options.file.c_str());
  return kExitOk;
}

int run_info(const InfoOptions& options, std::ostream& out) {
  if (const int code = refuse_folder(options.file, "info")) return code;
  if (const auto code = container_info(options, out)) return *code;
  std::error_code missing;
  FileRow file;
  // A whole file stored LZ is described as index describes it: its decoded content (issue 35).
  const auto whole_lz = std::filesystem::is_regular_file(options.file, missing)
                            ? read_input_bytes(options.file, kDefaultMaxFileSize)
                            : InputBytes{};
  if (whole_lz.error.empty() && whole_lz.compression != nullptr) {
    file.path = options.file.string();
    process_bytes(file, whole_lz.bytes, whole_lz.bytes.size(), ReferenceData::embedded(), ProcessOptions{});
  } else if (std::filesystem::exists(options.file, missing)) {
    struct stat info {};
    WalkEntry entry;
    entry.relative_path = options.file.filename().string();
    entry.absolute_path = options.file;
    if (::stat(options.file.c_str(), &info) == 0) entry.size = static_cast<std::uint64_t>(info.st_size);
    file = process_file(entry, ReferenceData::embedded(), ProcessOptions{});
  } else {  // a member of a disc image or archive
    auto input = read_input_bytes(options.file, kDefaultMaxFileSize);
    if (!input.error.empty()) return fail(kExitUsage, fmt::format("{}: {}", options.file.string(), input.error));
    file.path = options.file.string();
    process_bytes(file, input.bytes, input.bytes.size(), ReferenceData::embedded(), ProcessOptions{});
  }

  if (options.format == OutputFormat::json) {
    auto json = to_json(file);
    json["path"] = options.file.string();  // as given, so a script can use it again
    out << json_text(json) << '\n';
  } else {
    ResultTable summary{{"field", "value"}, {}};
    summary.rows.push_back({std::string("path"), options.file.string()});
    summary.rows.push_back({std::string("format"), file.format});
    summary.rows.push_back({std::string("size"), static_cast<std::int64_t>(file.size)});
    summary.rows.push_back({std::string("status"), std::string(status_name(file.status))});
    if (file.error) summary.rows.push_back({std::string("error"), *file.error});
    if (file.content_hash) summary.rows.push_back({std::string("content_hash"), *file.content_hash});
    for (const auto& property : file.model.properties) summary.rows.push_back({property.name, property.value});
    write_table(out, summary, options.format);
    if (file.status == FileStatus::ok) {
      write_section(out, "Animations", animations_table(file), options.format);
      for (const auto& [name, table] : format_tables(file)) write_section(out, name, table, options.format);
      write_section(out, "Bone tracks", tracks_table(file), options.format);
      if (options.show_keys) write_section(out, "Keys", keys_table(file), options.format);
    }
  }
  if (file.status == FileStatus::error) {
    return fail(kExitFileErrors, fmt::format("{}: {}", options.file.string(), file.error.value_or("error")));
  }
  if (file.status == FileStatus::unknown) {
    return fail(kExitFatal, fmt::format("{}: {} (see `animdex formats`)", options.file.string(),
                                        file.error.value_or("not a file format animdex knows")));
  }
  return kExitOk;
}

}  // namespace animdex

namespace animdex {

std::vector<Verb> add_info_verb(CLI::App& app) {
  struct Options {
    InfoOptions info;
    FormatOption format;
  };
  auto options = std::make_shared<Options>();
  auto* info = app.add_subcommand("info", "Parse one file and print its structure (no database)");
  info->add_option("file", options->info.file,
                   "The file to parse; a member of a disc image or archive also works (gnt4.iso/fpack/chr/nar1000.fpk/chr/nar/0000.mot)")
      ->required();
  add_format_option(*info, options->format, {"table", "json", "markdown"});
  info->add_flag("-k,--keys", options->info.show_keys, "Also list every key (json always has them)");
  add_examples(*info, {"animdex info files/chr/nar/0000.mot", "animdex info obj/P_EX100.mset --format json",
                       "animdex info data/door.nsbca --keys"});
  return {{info, [options](std::ostream& out) {
             options->info.format = options->format.value();
             return run_info(options->info, out);
           }}};
}

}  // namespace animdex
