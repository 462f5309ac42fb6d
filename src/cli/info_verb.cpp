#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <tuple>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/errors.h"
#include "cli/verb.h"
#include "formats/registry.h"
#include "indexer/rows.h"

namespace animdex {

namespace {

ResultTable animations_table(const FileRow& file) {
  ResultTable table{{"slot", "motion_id", "motion_hex", "name", "play_speed", "end_time", "frame_count", "tracks",
                     "keys", "content_hash", "kind", "bones", "fps"},
                    {}};
  for (std::size_t a = 0; a < file.model.animations.size(); ++a) {
    const auto& animation = file.model.animations[a];
    const auto& row = file.animations[a];
    table.rows.push_back({to_cell(animation.slot), to_cell(animation.motion_id),
                          animation.motion_id ? Cell(fmt::format("0x{:04X}", *animation.motion_id)) : Cell(),
                          to_cell(row.name), to_cell(animation.play_speed),
                          to_cell(animation.end_time), to_cell(animation.frame_count),
                          static_cast<std::int64_t>(animation.tracks.size()), row.key_count, row.content_hash,
                          animation.kind.empty() ? Cell() : Cell(animation.kind), to_cell(animation.bone_count),
                          to_cell(animation.fps)});
  }
  return table;
}

// KH2 BAR entries: where each slot's data is, whether it is a dummy, and what the engine plays.
ResultTable slots_table(const FileRow& file) {
  ResultTable table{{"parent_slot", "slot", "entry_name", "entry_type", "dummy", "size", "data_offset",
                     "duplicate_of", "motion_id", "motion_name", "state", "resolved_slot", "animation_slot"},
                    {}};
  // One pass over the resolutions, then a lookup per entry: linear in slots, not slots x resolutions.
  using ResolutionKey = std::tuple<std::optional<std::int64_t>, std::int64_t, std::optional<std::int64_t>>;
  std::map<ResolutionKey, std::int64_t> resolved_slots;
  for (const auto& resolution : file.model.slot_resolutions)
    resolved_slots[{resolution.parent_slot, resolution.motion_id, resolution.state}] = resolution.resolved_slot;
  const auto& entries = file.model.archive_entries;
  for (std::size_t e = 0; e < entries.size(); ++e) {
    const auto& entry = entries[e];
    std::optional<std::int64_t> resolved, animation_slot;
    if (entry.motion_id)
      if (const auto found = resolved_slots.find({entry.parent_slot, *entry.motion_id, entry.state});
          found != resolved_slots.end())
        resolved = found->second;
    if (entry.animation_index) animation_slot = file.model.animations[*entry.animation_index].slot;
    table.rows.push_back({to_cell(entry.parent_slot), entry.slot, entry.name,
                          fmt::format("{} {}", entry.type_code, entry.type_name), entry.is_dummy ? "yes" : "",
                          entry.size, fmt::format("0x{:X}", entry.data_offset), to_cell(entry.duplicate_of),
                          to_cell(entry.motion_id),
                          to_cell(e < file.entry_motion_names.size() ? file.entry_motion_names[e] : std::nullopt),
                          to_cell(entry.state), to_cell(resolved), to_cell(animation_slot)});
  }
  return table;
}

// Skeletal formats with per-node channel states (NSBCA): every node, identity and base included.
ResultTable nodes_table(const FileRow& file) {
  ResultTable table{{"animation", "node", "node_id", "tag", "T", "R", "S", "T_keys", "R_keys", "S_keys"}, {}};
  for (const auto& animation : file.model.animations) {
    // Key counts per node and T/R/S, gathered in one pass over the tracks.
    std::map<std::int64_t, std::array<std::int64_t, 3>> key_counts;
    for (const auto& track : animation.tracks) {
      const auto kind = std::string_view("TRS").find(track.channels.empty() ? '?' : track.channels[0]);
      if (track.bone_id && kind != std::string_view::npos)
        key_counts[*track.bone_id][kind] = static_cast<std::int64_t>(track.keys.size());
    }
    for (const auto& node : animation.node_states) {
      const auto found = key_counts.find(node.node_index);
      const std::array<std::int64_t, 3> keys = found == key_counts.end() ? std::array<std::int64_t, 3>{} : found->second;
      table.rows.push_back({animation.name, node.node_index, node.node_id, fmt::format("0x{:08X}", node.tag),
                            node.translation, node.rotation, node.scale, keys[0], keys[1], keys[2]});
    }
  }
  return table;
}

ResultTable tracks_table(const FileRow& file) {
  ResultTable table{{"animation", "slot", "track", "bone_id", "bone_hex", "bone_name", "flags", "track_flags",
                     "channels", "state", "encoding", "keys", "total_time"},
                    {}};
  for (std::size_t a = 0; a < file.model.animations.size(); ++a) {
    const auto& animation = file.model.animations[a];
    for (std::size_t t = 0; t < animation.tracks.size(); ++t) {
      const auto& track = animation.tracks[t];
      table.rows.push_back({to_cell(file.animations[a].name), to_cell(animation.slot),
                            static_cast<std::int64_t>(t), to_cell(track.bone_id),
                            track.bone_id ? Cell(fmt::format("0x{:02X}", *track.bone_id)) : Cell(),
                            to_cell(file.animations[a].tracks[t].bone_name),
                            fmt::format("0x{:04X}", track.flags), fmt::format("0x{:02X}", track.track_flags),
                            track.channels, track.state.empty() ? Cell() : Cell(track.state), track.value_encoding,
                            static_cast<std::int64_t>(track.keys.size()), track.total_time});
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
        table.rows.push_back({to_cell(animation.slot), static_cast<std::int64_t>(t),
                              to_cell(animation.tracks[t].bone_id), static_cast<std::int64_t>(k), key.time,
                              to_cell(key.frame), to_cell(key.x), to_cell(key.y),
                              to_cell(key.z), to_cell(key.w)});
      }
  return table;
}

template <typename T>
nlohmann::ordered_json json_optional(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
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
  for (const auto& property : file.model.properties) properties[property.name] = property.value;
  auto& animations = json["animations"] = nlohmann::ordered_json::array();
  for (std::size_t a = 0; a < file.model.animations.size(); ++a) {
    const auto& animation = file.model.animations[a];
    const auto& row = file.animations[a];
    nlohmann::ordered_json item;
    item["slot"] = json_optional(animation.slot);
    item["motion_id"] = json_optional(animation.motion_id);
    item["name"] = json_optional(row.name);
    item["play_speed"] = json_optional(animation.play_speed);
    item["end_time"] = json_optional(animation.end_time);
    item["frame_count"] = json_optional(animation.frame_count);
    if (!animation.kind.empty()) item["kind"] = animation.kind;
    if (animation.bone_count) item["bone_count"] = *animation.bone_count;
    if (animation.total_bone_count) item["total_bone_count"] = *animation.total_bone_count;
    if (animation.fps) {
      item["fps"] = *animation.fps;
      item["frame_start"] = json_optional(animation.frame_start);
      item["frame_end"] = json_optional(animation.frame_end);
      item["frame_return"] = json_optional(animation.frame_return);
    }
    item["content_hash"] = row.content_hash;
    if (!animation.node_states.empty()) {
      auto& nodes = item["nodes"] = nlohmann::ordered_json::array();
      for (const auto& node : animation.node_states)
        nodes.push_back({{"node", node.node_index}, {"node_id", node.node_id}, {"tag", node.tag},
                         {"T", node.translation}, {"R", node.rotation}, {"S", node.scale}});
    }
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
      if (!track.state.empty()) track_json["state"] = track.state;
      track_json["total_time"] = track.total_time;
      track_json["content_hash"] = row.tracks[t].content_hash;
      auto& keys = track_json["keys"] = nlohmann::ordered_json::array();
      for (const auto& key : track.keys)
        keys.push_back({{"time", key.time}, {"frame", json_optional(key.frame)}, {"x", json_optional(key.x)},
                        {"y", json_optional(key.y)}, {"z", json_optional(key.z)}, {"w", json_optional(key.w)}});
      tracks.push_back(std::move(track_json));
    }
    animations.push_back(std::move(item));
  }
  if (!file.model.archive_entries.empty()) {
    const auto slots = slots_table(file);
    auto& rows = json["slots"] = nlohmann::ordered_json::array();
    for (const auto& row : slots.rows) {
      nlohmann::ordered_json item;
      for (std::size_t c = 0; c < slots.columns.size(); ++c) {
        const auto& cell = row[c];
        if (std::holds_alternative<std::monostate>(cell)) item[slots.columns[c]] = nullptr;
        else if (const auto* number = std::get_if<std::int64_t>(&cell)) item[slots.columns[c]] = *number;
        else if (const auto* real = std::get_if<double>(&cell)) item[slots.columns[c]] = *real;
        else item[slots.columns[c]] = cell_text(cell);
      }
      rows.push_back(std::move(item));
    }
  }
  return json;
}

void write_section(std::ostream& out, const std::string& title, const ResultTable& table, OutputFormat format) {
  out << (format == OutputFormat::markdown ? "\n## " : "\n") << title << (format == OutputFormat::markdown ? "\n\n" : "\n");
  write_table(out, table, format);
}

}  // namespace

int run_info(const InfoOptions& options, std::ostream& out) {
  struct stat info {};
  WalkEntry entry;
  entry.relative_path = options.file.filename().string();
  entry.absolute_path = options.file;
  if (::stat(options.file.c_str(), &info) == 0) entry.size = static_cast<std::uint64_t>(info.st_size);
  const FileRow file = process_file(entry, ReferenceData::embedded(), ProcessOptions{});

  if (options.format == OutputFormat::json) {
    out << to_json(file).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
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
      if (!file.model.archive_entries.empty())
        write_section(out, "Slots", slots_table(file), options.format);
      write_section(out, "Animations", animations_table(file), options.format);
      if (std::any_of(file.model.animations.begin(), file.model.animations.end(),
                      [](const auto& animation) { return !animation.node_states.empty(); }))
        write_section(out, "Nodes", nodes_table(file), options.format);
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
  info->add_option("file", options->info.file, "The file to parse")->required()->check(CLI::ExistingFile);
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
