#include "reports/diff_report.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <set>
#include <limits>
#include <map>
#include <sqlite3.h>
#include <stdexcept>
#include <tuple>

#include "db/database.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "core/number_text.h"
#include "reports/html.h"

namespace animdex::reports {

namespace {

struct TrackRow {
  std::int64_t id = 0, key_count = 0;
  std::string content_hash;
  std::optional<std::string> bone_name;
};

using TrackKey = std::tuple<std::optional<std::int64_t>, std::string, int>;  // bone, channels, occurrence

void require_dump(SQLite::Database& db, const std::string& label) {
  SQLite::Statement query(db, "SELECT COUNT(*) FROM dumps WHERE label = ?");
  query.bind(1, label);
  query.executeStep();
  if (query.getColumn(0).getInt64() == 0)
    throw std::runtime_error(
        fmt::format("no dump labelled '{}' in {}", label, sqlite3_db_filename(db.getHandle(), "main")));
}

// The two dumps as the labels `from` and `to` of temporary views that shadow file_catalog and
// animation_catalog on `to_db`'s connection, so the named queries diff-files and diff-animations
// compare them as written, within one database or across two. Dropped again on destruction.
class DiffViews {
 public:
  DiffViews(SQLite::Database& from_db, const std::string& from_label, SQLite::Database& to_db,
            const std::string& to_label)
      : db_(to_db) {
    try {
      create(from_db, from_label, to_label);
    } catch (...) {  // leave the connection as it was: no attachment, no views, query_only on
      drop();
      throw;
    }
  }
  ~DiffViews() { drop(); }
  DiffViews(const DiffViews&) = delete;
  DiffViews& operator=(const DiffViews&) = delete;

 private:
  void create(SQLite::Database& from_db, const std::string& from_label, const std::string& to_label) {
    const std::string from_file = sqlite3_db_filename(from_db.getHandle(), "main");
    const bool same = &from_db == &db_ || from_file == sqlite3_db_filename(db_.getHandle(), "main");
    if (!same) {
      attach_read_only(db_, from_file, "diff_from");
      attached_ = true;
    }
    const std::string from_schema = same ? "main" : "diff_from";
    // Temporary views are the only writes: query_only is lifted for them; the files stay read-only.
    db_.exec("PRAGMA query_only = OFF");
    for (const std::string view : {"file_catalog", "animation_catalog"}) {
      const std::string columns = columns_but_dump(view);
      db_.exec(fmt::format("CREATE TEMP VIEW {0} AS SELECT 'from' AS dump, {1} FROM {2}.{0} WHERE dump = {3} "
                           "UNION ALL SELECT 'to' AS dump, {1} FROM main.{0} WHERE dump = {4}",
                           view, columns, from_schema, quoted(from_label), quoted(to_label)));
    }
    db_.exec("PRAGMA query_only = ON");
  }
  void drop() noexcept {
    db_.tryExec("PRAGMA query_only = OFF");
    db_.tryExec("DROP VIEW IF EXISTS temp.file_catalog");
    db_.tryExec("DROP VIEW IF EXISTS temp.animation_catalog");
    db_.tryExec("PRAGMA query_only = ON");
    if (attached_) db_.tryExec("DETACH DATABASE diff_from");
    attached_ = false;
  }

  static std::string quoted(const std::string& text) {
    char* literal = sqlite3_mprintf("%Q", text.c_str());
    const std::string result = literal;
    sqlite3_free(literal);
    return result;
  }
  // The view's columns after `dump`, which the temporary view replaces by `from` or `to`.
  std::string columns_but_dump(const std::string& view) {
    SQLite::Statement info(db_, "SELECT name FROM pragma_table_info(?, 'main') WHERE name <> 'dump' ORDER BY cid");
    info.bind(1, view);
    std::string columns;
    while (info.executeStep()) columns += fmt::format("{}\"{}\"", columns.empty() ? "" : ", ", info.getColumn(0).getString());
    return columns;
  }
  SQLite::Database& db_;
  bool attached_ = false;
};

// The build that indexed a dump (dumps.build_id); empty for dumps from before build ids.
std::optional<std::string> build_of(SQLite::Database& db, const std::string& label) {
  SQLite::Statement query(db, "SELECT build_id FROM dumps WHERE label = ?");
  query.bind(1, label);
  if (!query.executeStep() || query.getColumn(0).isNull()) return std::nullopt;
  return query.getColumn(0).getString();
}

// An animation's tracks by (bone, channels, occurrence), each with its bone's name from the
// reference of the game the file's format belongs to.
std::map<TrackKey, TrackRow> tracks_of(SQLite::Database& db, const BoneNames& names, std::int64_t animation_id) {
  SQLite::Statement query(db, "SELECT t.id, t.bone_id, t.channels, t.key_count, t.content_hash, f.format "
                              "FROM bone_tracks t JOIN animations a ON a.id = t.animation_id "
                              "JOIN files f ON f.id = a.file_id WHERE t.animation_id = ? ORDER BY t.track_index");
  query.bind(1, animation_id);
  std::map<TrackKey, TrackRow> tracks;
  std::map<std::pair<std::optional<std::int64_t>, std::string>, int> seen;
  while (query.executeStep()) {
    const std::optional<std::int64_t> bone =
        query.getColumn(1).isNull() ? std::nullopt : std::optional<std::int64_t>(query.getColumn(1).getInt64());
    const std::string channels = query.getColumn(2).getString();
    tracks[{bone, channels, seen[{bone, channels}]++}] = {
        query.getColumn(0).getInt64(), query.getColumn(3).getInt64(), query.getColumn(4).getString(),
        bone ? names.of_format(query.getColumn(5).getString(), *bone) : std::nullopt};
  }
  return tracks;
}

std::vector<std::array<double, 5>> keys_of(SQLite::Database& db, std::int64_t track_id) {
  SQLite::Statement query(db, "SELECT time, x, y, z, w FROM keyframes WHERE track_id = ? ORDER BY key_index");
  query.bind(1, track_id);
  std::vector<std::array<double, 5>> keys;
  while (query.executeStep()) {
    std::array<double, 5> key{};
    for (int c = 0; c < 5; ++c) key[static_cast<std::size_t>(c)] = query.getColumn(c).isNull() ? NAN : query.getColumn(c).getDouble();
    keys.push_back(key);
  }
  return keys;
}

TrackChange track_change(const TrackKey& key, const TrackRow& track, const std::string& change) {
  const auto& [bone, channels, occurrence] = key;
  std::string label = bone ? bone_label(*bone, track.bone_name) + " " + channels : channels;
  if (occurrence > 0) label += fmt::format(" #{}", occurrence + 1);
  return {label, change, 0, 0, std::nullopt, bone, track.bone_name, channels, std::nullopt, std::nullopt, {}};
}

// The largest difference of a time or value over the keys both tracks have; empty when either
// side's keys were not stored. A computed value (core/number_text.h): no 17 digits of noise.
std::optional<double> largest_value_change(const std::vector<std::array<double, 5>>& before,
                                           const std::vector<std::array<double, 5>>& after) {
  if (before.empty() || after.empty()) return std::nullopt;
  double largest = 0;
  for (std::size_t k = 0; k < std::min(before.size(), after.size()); ++k)
    for (std::size_t c = 0; c < 5; ++c) {
      const double a = before[k][c], b = after[k][c];
      if (std::isnan(a) || std::isnan(b)) continue;  // a value one of the keys does not have
      largest = std::max(largest, std::abs(a - b));
    }
  return as_computed(largest);
}

struct Side {
  SQLite::Database& db;
  const BoneNames& names;
};

// A changed track: its key counts, field changes and largest value change.
void fill_changed(TrackChange& change, const Side& from, const TrackRow& before, const Side& to, const TrackRow& after) {
  change.keys_before = before.key_count;
  change.before_track_id = before.id;
  change.keys_after = after.key_count;
  change.after_track_id = after.id;
  auto fields = track_field_changes(from.db, before.id, to.db, after.id);
  change.fields.insert(change.fields.end(), fields.begin(), fields.end());
  change.largest_value_change = largest_value_change(keys_of(from.db, before.id), keys_of(to.db, after.id));
}

std::vector<TrackChange> compare_tracks(const Side& from, std::int64_t from_id, const Side& to, std::int64_t to_id) {
  const auto before = tracks_of(from.db, from.names, from_id), after = tracks_of(to.db, to.names, to_id);
  std::vector<TrackChange> changes;
  // A bone whose one track changed its channels (GNT flags: T -> TS) keeps its track: with exactly
  // one unmatched track on each side, the two are one track, changed.
  std::map<std::int64_t, std::vector<const TrackKey*>> only_before, only_after;
  for (const auto& [key, track] : before)
    if (std::get<0>(key) && !after.count(key)) only_before[*std::get<0>(key)].push_back(&key);
  for (const auto& [key, track] : after)
    if (std::get<0>(key) && !before.count(key)) only_after[*std::get<0>(key)].push_back(&key);
  std::map<TrackKey, const TrackKey*> paired;  // the after key -> its before key
  for (const auto& [bone, keys] : only_before)
    if (const auto other = only_after.find(bone);
        keys.size() == 1 && other != only_after.end() && other->second.size() == 1)
      paired.emplace(*other->second.front(), keys.front());
  std::set<TrackKey> paired_before;
  for (const auto& [after_key, before_key] : paired) paired_before.insert(*before_key);
  for (const auto& [key, track] : before)
    if (!after.count(key) && !paired_before.count(key)) {
      changes.push_back(track_change(key, track, "removed"));
      changes.back().keys_before = track.key_count;
      changes.back().before_track_id = track.id;
    }
  for (const auto& [key, track] : after) {
    if (const auto pair = paired.find(key); pair != paired.end()) {
      changes.push_back(track_change(key, track, "changed"));
      changes.back().fields.push_back({"channels", std::get<1>(*pair->second), std::get<1>(key)});
      fill_changed(changes.back(), from, before.at(*pair->second), to, track);
      continue;
    }
    const auto found = before.find(key);
    if (found != before.end() && found->second.content_hash == track.content_hash) continue;
    changes.push_back(track_change(key, track, found == before.end() ? "added" : "changed"));
    changes.back().keys_after = track.key_count;
    changes.back().after_track_id = track.id;
    if (found != before.end()) fill_changed(changes.back(), from, found->second, to, track);
  }
  std::sort(changes.begin(), changes.end(),
            [](const TrackChange& a, const TrackChange& b) { return natural_less(a.track, b.track); });
  return changes;
}

// "2 changed", "1 added, 3 changed": what happened to a changed animation's tracks, in one cell.
std::string track_counts(const std::vector<TrackChange>& tracks) {
  std::map<std::string, int> counts;
  for (const auto& track : tracks) ++counts[track.change];
  std::string text;
  for (const auto& [change, count] : counts) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", count, change);
  return text;
}

std::optional<double> largest_of(const std::vector<TrackChange>& tracks) {
  std::optional<double> largest;
  for (const auto& track : tracks)
    if (track.largest_value_change) largest = std::max(largest.value_or(0), *track.largest_value_change);
  return largest;
}

// Every field that differs: "flags 0x05 -> 0x45" in text, {field, before, after} objects in JSON.
ListCell fields_list(const std::vector<FieldChange>& fields) {
  ListCell list;
  for (const auto& change : fields) {
    list.items.push_back(change_text(change));
    list.json.push_back({{"field", change.field}, {"before", change.before}, {"after", change.after}});
  }
  return list;
}

nlohmann::ordered_json track_json(const TrackChange& track) {
  const auto optional = [](const auto& value) {
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
  };
  return {{"track", track.track},       {"bone_id", optional(track.bone_id)}, {"bone_name", optional(track.bone_name)},
          {"channels", track.channels}, {"change", track.change},             {"keys_before", track.keys_before},
          {"keys_after", track.keys_after}, {"largest_value_change", optional(track.largest_value_change)},
          {"changed_fields", fields_list(track.fields).json}};
}

// The tracks cell of an animation row: counts in text and HTML ("1 added, 2 changed"; the tracks
// themselves are in the next section), every track as an object in JSON.
ListCell tracks_list(const AnimationChange& animation) {
  const auto& tracks = animation.tracks;
  ListCell list;
  // A changed animation whose tracks all match changed elsewhere (its header, its format's rows).
  const bool only_header = animation.change == "changed" && tracks.empty();
  list.items.push_back(only_header ? "tracks unchanged" : track_counts(tracks));
  for (const auto& track : tracks) list.json.push_back(track_json(track));
  return list;
}

}  // namespace

std::string sole_dump(SQLite::Database& db, const std::string& what) {
  SQLite::Statement query(db, "SELECT label FROM dumps ORDER BY label");
  std::vector<std::string> labels;
  while (query.executeStep()) labels.push_back(query.getColumn(0).getString());
  if (labels.size() == 1) return labels.front();
  std::string list;
  for (const auto& label : labels) list += (list.empty() ? "" : ", ") + label;
  throw std::runtime_error(labels.empty() ? fmt::format("{} holds no dump", what)
                                          : fmt::format("{} holds several dumps ({}); say which with --{}", what, list,
                                                        what == "the first database" ? "from" : "to"));
}

DiffReport build_diff(SQLite::Database& from_db, const std::string& from_label, SQLite::Database& to_db,
                      const std::string& to_label) {
  require_dump(from_db, from_label);
  require_dump(to_db, to_label);
  DiffReport report;
  report.from_label = from_label;
  report.to_label = to_label;
  const auto from_build = build_of(from_db, from_label), to_build = build_of(to_db, to_label);
  if (!from_build || from_build != to_build)
    report.caveat = "The two dumps were indexed by different builds of animdex, whose content hashes may differ where "
                    "the content does not; re-index both with this build for an exact diff.";
  const DiffViews views(from_db, from_label, to_db, to_label);
  const Bindings labels{{"from", "from"}, {"to", "to"}};
  const auto run = [&](const char* name) {
    // A diff holds its changes in memory anyway: no row cap, and 1 GiB of result text at most.
    const NamedQuery& query = *find_named_query(name);
    return run_read_only_query(to_db, query.sql, bind_parameters(query, labels),
                               ResultLimits{std::numeric_limits<std::size_t>::max(), 1ULL << 30});
  };
  const auto count = [&](const char* view) {
    // The image a dump was given as its only root is not compared (match_path ''), only its members.
    SQLite::Statement query(to_db, fmt::format("SELECT COUNT(*) FROM temp.{} WHERE dump = 'from' AND match_path <> ''", view));
    query.executeStep();
    return query.getColumn(0).getInt64();
  };
  std::int64_t removed_files = 0, removed_animations = 0;
  for (const auto& row : run("diff-files").rows) {  // path, format, change
    report.files.push_back({cell_text(row[0]), cell_text(row[1]), cell_text(row[2]), {}});
    removed_files += report.files.back().change != "added";  // removed or changed: not unchanged
    if (report.files.back().change != "changed") continue;
    const auto from_file = file_id_of(from_db, from_label, report.files.back().path);
    const auto to_file = file_id_of(to_db, to_label, report.files.back().path);
    if (from_file && to_file) report.files.back().fields = file_field_changes(from_db, *from_file, to_db, *to_file);
  }
  report.unchanged_files = count("file_catalog") - removed_files;
  const BoneNames from_names(from_db), to_names(to_db);
  const auto from_states = slot_states_by_animation(from_db), to_states = slot_states_by_animation(to_db);
  // character, path, animation, name, change, from_animation_id, to_animation_id
  for (const auto& row : run("diff-animations").rows) {
    AnimationChange change{cell_text(row[0]), cell_text(row[1]), cell_text(row[2]), cell_text(row[4]),
                           std::holds_alternative<std::string>(row[3]) ? std::optional(cell_text(row[3])) : std::nullopt,
                           {}, {}, {}, {}, {}};
    if (const auto* id = std::get_if<std::int64_t>(&row[5])) change.from_animation_id = *id;
    if (const auto* id = std::get_if<std::int64_t>(&row[6])) change.to_animation_id = *id;
    // The states of the newer side; of the older one for a removed animation.
    const bool removed = change.change == "removed";
    const auto& states = removed ? from_states : to_states;
    if (const auto found = states.find(std::get<std::int64_t>(row[removed ? 5 : 6])); found != states.end())
      change.states = found->second;
    if (change.change == "changed")
      change.fields = animation_field_changes(from_db, std::get<std::int64_t>(row[5]), to_db, std::get<std::int64_t>(row[6]));
    if (change.change == "changed")
      change.tracks = compare_tracks({from_db, from_names}, std::get<std::int64_t>(row[5]), {to_db, to_names},
                                     std::get<std::int64_t>(row[6]));
    removed_animations += change.change != "added";
    report.animations.push_back(std::move(change));
  }
  report.unchanged_animations = count("animation_catalog") - removed_animations;
  std::sort(report.files.begin(), report.files.end(), [](const FileChange& a, const FileChange& b) { return a.path < b.path; });
  std::sort(report.animations.begin(), report.animations.end(), [](const AnimationChange& a, const AnimationChange& b) {
    if (std::tie(a.owner, a.path) != std::tie(b.owner, b.path)) return std::tie(a.owner, a.path) < std::tie(b.owner, b.path);
    if (a.animation_key != b.animation_key) return natural_less(a.animation_key, b.animation_key);
    return a.change < b.change;
  });
  return report;
}

namespace {

// The character, or nothing for a file without one (whose owner is its path, already shown).
Cell character_of(const AnimationChange& animation) {
  return animation.owner == animation.path ? Cell() : Cell(animation.owner);
}

Section files_section(const DiffReport& report, const std::map<std::string, std::int64_t>& file_counts,
                      const std::map<std::string, std::int64_t>& animation_counts, bool with_chart) {
  const auto count = [](const std::map<std::string, std::int64_t>& counts, const char* change) {
    const auto found = counts.find(change);
    return found == counts.end() ? std::int64_t{0} : found->second;
  };
  Section files{"files", "Files",
                fmt::format("{} -> {}: {} added, {} removed, {} changed, {} unchanged.{}", report.from_label,
                            report.to_label, count(file_counts, "added"), count(file_counts, "removed"),
                            count(file_counts, "changed"), report.unchanged_files,
                            report.caveat.empty() ? "" : " " + report.caveat),
                {{"path", "format", "change", "changed_fields"}, {}},
                "",
                {}};
  for (const auto& file : report.files)
    files.add_row({file.path, file.format, file.change, Cell()}, {{"changed_fields", fields_list(file.fields)}});
  if (!with_chart) return files;
  BarChart chart{"diff-chart", "Changes", "files or animations", {}, {}, {}};
  for (const auto& [what, counts] : {std::pair{"files", &file_counts}, std::pair{"animations", &animation_counts}})
    for (const char* change : {"added", "removed", "changed"}) {
      chart.labels.push_back(fmt::format("{} {}", what, change));
      chart.values.push_back(static_cast<double>(count(*counts, change)));
    }
  files.chart = svg_bar_chart(chart);
  return files;
}

Section animations_section(const DiffReport& report, const std::map<std::string, std::int64_t>& counts) {
  const auto count = [&](const char* change) {
    const auto found = counts.find(change);
    return found == counts.end() ? std::int64_t{0} : found->second;
  };
  Section animations{"animations", "Animations",
                     fmt::format("Matched by file and animation ID (else name): {} added, {} removed, {} changed, {} "
                                 "unchanged. One row per animation; the tracks of changed ones follow in their own "
                                 "section.",
                                 count("added"), count("removed"), count("changed"), report.unchanged_animations),
                     {{"character", "path", "animation", "name", "change", "tracks", "largest_value_change",
                       "changed_fields"},
                      {}},
                     "",
                     {}};
  for (const auto& animation : report.animations)
    animations.add_row({character_of(animation), animation.path, animation.animation_key,
                        to_cell(name_with_states(animation.name, animation.states)), animation.change, Cell(),
                        to_cell(largest_of(animation.tracks)), Cell()},
                       {{"tracks", tracks_list(animation)}, {"changed_fields", fields_list(animation.fields)}});
  return animations;
}

Section tracks_section(const DiffReport& report) {
  Section tracks{"tracks", "Changed bone tracks",
                 "Per changed animation (named as in Animations, with its KH2 states, so two slots of one motion "
                 "ID stay apart), its tracks matched by bone and channels (bones named where the game's "
                 "reference knows them): keys before and after, and the largest change of a time or value over the "
                 "keys both have.",
                 {{"character", "path", "animation", "name", "track", "change", "keys_before", "keys_after",
                   "keys_added", "keys_removed", "largest_value_change", "changed_fields"},
                  {}},
                 "",
                 {}};
  for (const auto& animation : report.animations)
    for (const auto& track : animation.tracks)
      tracks.add_row({character_of(animation), animation.path, animation.animation_key,
                      to_cell(name_with_states(animation.name, animation.states)), track.track, track.change,
                      track.keys_before, track.keys_after, std::max<std::int64_t>(0, track.keys_after - track.keys_before),
                      std::max<std::int64_t>(0, track.keys_before - track.keys_after),
                      to_cell(track.largest_value_change), Cell()},
                     {{"changed_fields", fields_list(track.fields)}});
  return tracks;
}

}  // namespace

std::vector<Section> diff_sections(const DiffReport& report, bool with_chart) {
  std::map<std::string, std::int64_t> file_counts, animation_counts;
  for (const auto& file : report.files) ++file_counts[file.change];
  for (const auto& animation : report.animations) ++animation_counts[animation.change];
  return {files_section(report, file_counts, animation_counts, with_chart), animations_section(report, animation_counts),
          tracks_section(report)};
}

}  // namespace animdex::reports
