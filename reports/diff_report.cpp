#include "reports/diff_report.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <sqlite3.h>
#include <stdexcept>
#include <tuple>

#include "reports/html.h"

namespace animdex::reports {

namespace {

struct FileRow {
  std::string format, status, hash;
};

struct AnimationRow {
  std::int64_t id = 0;
  std::string owner, content_hash;
  std::optional<std::string> name;
};

struct TrackRow {
  std::int64_t id = 0, key_count = 0;
  std::string content_hash;
};

using AnimationKey = std::tuple<std::string, std::string, int>;  // path, animation key, occurrence
using TrackKey = std::tuple<std::optional<std::int64_t>, std::string, int>;  // bone, channels, occurrence

void require_dump(SQLite::Database& db, const std::string& label) {
  SQLite::Statement query(db, "SELECT COUNT(*) FROM dumps WHERE label = ?");
  query.bind(1, label);
  query.executeStep();
  if (query.getColumn(0).getInt64() == 0)
    throw std::runtime_error(
        fmt::format("no dump labelled '{}' in {}", label, sqlite3_db_filename(db.getHandle(), "main")));
}

std::map<std::string, FileRow> files_of(SQLite::Database& db, const std::string& label) {
  SQLite::Statement query(db, "SELECT f.path, f.format, f.status, COALESCE(f.content_hash, '') FROM files f "
                              "JOIN dumps d ON d.id = f.dump_id WHERE d.label = ?");
  query.bind(1, label);
  std::map<std::string, FileRow> files;
  while (query.executeStep())
    files[query.getColumn(0).getString()] = {query.getColumn(1).getString(), query.getColumn(2).getString(),
                                             query.getColumn(3).getString()};
  return files;
}

std::map<AnimationKey, AnimationRow> animations_of(SQLite::Database& db, const std::string& label) {
  SQLite::Statement query(db, "SELECT animation_id, owner, path, animation_key, name, content_hash "
                              "FROM animation_catalog WHERE dump = ? ORDER BY path, animation_key, animation_id");
  query.bind(1, label);
  std::map<AnimationKey, AnimationRow> animations;
  std::map<std::pair<std::string, std::string>, int> seen;
  while (query.executeStep()) {
    const std::string path = query.getColumn(2).getString(), key = query.getColumn(3).getString();
    const int occurrence = seen[{path, key}]++;  // a key used twice in a file is matched in order
    animations[{path, key, occurrence}] = {query.getColumn(0).getInt64(), query.getColumn(1).getString(),
                                           query.getColumn(5).getString(),
                                           query.getColumn(4).isNull()
                                               ? std::nullopt
                                               : std::optional<std::string>(query.getColumn(4).getString())};
  }
  return animations;
}

std::map<TrackKey, TrackRow> tracks_of(SQLite::Database& db, std::int64_t animation_id) {
  SQLite::Statement query(db, "SELECT id, bone_id, channels, key_count, content_hash FROM bone_tracks "
                              "WHERE animation_id = ? ORDER BY track_index");
  query.bind(1, animation_id);
  std::map<TrackKey, TrackRow> tracks;
  std::map<std::pair<std::optional<std::int64_t>, std::string>, int> seen;
  while (query.executeStep()) {
    const std::optional<std::int64_t> bone =
        query.getColumn(1).isNull() ? std::nullopt : std::optional<std::int64_t>(query.getColumn(1).getInt64());
    const std::string channels = query.getColumn(2).getString();
    tracks[{bone, channels, seen[{bone, channels}]++}] = {query.getColumn(0).getInt64(),
                                                          query.getColumn(3).getInt64(),
                                                          query.getColumn(4).getString()};
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

std::string track_name(const TrackKey& key) {
  const auto& [bone, channels, occurrence] = key;
  std::string name = bone ? fmt::format("bone {} {}", *bone, channels) : channels;
  if (occurrence > 0) name += fmt::format(" #{}", occurrence + 1);
  return name;
}

std::vector<TrackChange> compare_tracks(SQLite::Database& from_db, std::int64_t from_id, SQLite::Database& to_db,
                                        std::int64_t to_id) {
  const auto before = tracks_of(from_db, from_id), after = tracks_of(to_db, to_id);
  std::vector<TrackChange> changes;
  for (const auto& [key, track] : before)
    if (!after.count(key)) changes.push_back({track_name(key), "removed", track.key_count, 0, std::nullopt});
  for (const auto& [key, track] : after) {
    const auto found = before.find(key);
    if (found == before.end()) {
      changes.push_back({track_name(key), "added", 0, track.key_count, std::nullopt});
      continue;
    }
    if (found->second.content_hash == track.content_hash) continue;
    TrackChange change{track_name(key), "changed", found->second.key_count, track.key_count, std::nullopt};
    const auto old_keys = keys_of(from_db, found->second.id), new_keys = keys_of(to_db, track.id);
    if (!old_keys.empty() && !new_keys.empty()) {
      double largest = 0;
      for (std::size_t k = 0; k < std::min(old_keys.size(), new_keys.size()); ++k)
        for (std::size_t c = 0; c < 5; ++c) {
          const double a = old_keys[k][c], b = new_keys[k][c];
          if (std::isnan(a) || std::isnan(b)) continue;
          largest = std::max(largest, std::abs(a - b));
        }
      change.largest_value_change = largest;
    }
    changes.push_back(change);
  }
  std::sort(changes.begin(), changes.end(),
            [](const TrackChange& a, const TrackChange& b) { return natural_less(a.track, b.track); });
  return changes;
}

std::string summary_of(const std::vector<TrackChange>& tracks) {
  std::string text;
  for (const auto& track : tracks) {
    if (!text.empty()) text += "; ";
    text += track.track + " " + track.change;
    if (track.change == "changed") {
      if (track.keys_before != track.keys_after) text += fmt::format(" ({} -> {} keys)", track.keys_before, track.keys_after);
      if (track.largest_value_change) text += fmt::format(" (largest value change {:g})", *track.largest_value_change);
    }
  }
  return text;
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
  const auto old_files = files_of(from_db, from_label), new_files = files_of(to_db, to_label);
  for (const auto& [path, file] : old_files)
    if (!new_files.count(path)) report.files.push_back({path, file.format, "removed"});
  for (const auto& [path, file] : new_files) {
    const auto found = old_files.find(path);
    if (found == old_files.end()) report.files.push_back({path, file.format, "added"});
    else if (found->second.hash != file.hash || found->second.status != file.status)
      report.files.push_back({path, file.format, "changed"});
    else ++report.unchanged_files;
  }
  std::sort(report.files.begin(), report.files.end(), [](const FileChange& a, const FileChange& b) { return a.path < b.path; });

  const auto old_animations = animations_of(from_db, from_label), new_animations = animations_of(to_db, to_label);
  for (const auto& [key, animation] : old_animations)
    if (!new_animations.count(key))
      report.animations.push_back({animation.owner, std::get<0>(key), std::get<1>(key), "removed", animation.name, {}});
  for (const auto& [key, animation] : new_animations) {
    const auto found = old_animations.find(key);
    if (found == old_animations.end()) {
      report.animations.push_back({animation.owner, std::get<0>(key), std::get<1>(key), "added", animation.name, {}});
    } else if (found->second.content_hash != animation.content_hash) {
      report.animations.push_back({animation.owner, std::get<0>(key), std::get<1>(key), "changed", animation.name,
                                   compare_tracks(from_db, found->second.id, to_db, animation.id)});
    } else {
      ++report.unchanged_animations;
    }
  }
  std::sort(report.animations.begin(), report.animations.end(), [](const AnimationChange& a, const AnimationChange& b) {
    if (std::tie(a.owner, a.path) != std::tie(b.owner, b.path)) return std::tie(a.owner, a.path) < std::tie(b.owner, b.path);
    if (a.animation_key != b.animation_key) return natural_less(a.animation_key, b.animation_key);
    return a.change < b.change;
  });
  return report;
}

std::vector<Section> diff_sections(const DiffReport& report, bool with_chart) {
  std::map<std::string, std::int64_t> file_counts, animation_counts;
  for (const auto& file : report.files) ++file_counts[file.change];
  for (const auto& animation : report.animations) ++animation_counts[animation.change];
  Section files{"files", "Files",
                fmt::format("{} -> {}: {} added, {} removed, {} changed, {} unchanged.", report.from_label,
                            report.to_label, file_counts["added"], file_counts["removed"], file_counts["changed"],
                            report.unchanged_files),
                {{"path", "format", "change"}, {}},
                ""};
  for (const auto& file : report.files) files.table.rows.push_back({file.path, file.format, file.change});
  if (with_chart) {
    files.chart = svg_bar_chart(
        "diff-chart", "Changes", {"files added", "files removed", "files changed", "animations added", "animations removed", "animations changed"},
        {static_cast<double>(file_counts["added"]), static_cast<double>(file_counts["removed"]),
         static_cast<double>(file_counts["changed"]), static_cast<double>(animation_counts["added"]),
         static_cast<double>(animation_counts["removed"]), static_cast<double>(animation_counts["changed"])},
        "");
  }
  Section animations{"animations", "Animations",
                     fmt::format("Matched by file and animation ID (else name): {} added, {} removed, {} changed, {} "
                                 "unchanged.",
                                 animation_counts["added"], animation_counts["removed"], animation_counts["changed"],
                                 report.unchanged_animations),
                     {{"character", "path", "animation", "name", "change", "tracks_changed", "summary"}, {}},
                     ""};
  Section tracks{"tracks", "Changed bone tracks",
                 "Per changed animation, its tracks matched by bone and channels: keys before and after, and the "
                 "largest change of a time or value over the keys both have.",
                 {{"character", "path", "animation", "track", "change", "keys_before", "keys_after", "keys_added",
                   "keys_removed", "largest_value_change"},
                  {}},
                 ""};
  for (const auto& animation : report.animations) {
    animations.table.rows.push_back({animation.owner, animation.path, animation.animation_key,
                                     to_cell(animation.name), animation.change,
                                     static_cast<std::int64_t>(animation.tracks.size()), summary_of(animation.tracks)});
    for (const auto& track : animation.tracks)
      tracks.table.rows.push_back({animation.owner, animation.path, animation.animation_key, track.track, track.change,
                                   track.keys_before, track.keys_after,
                                   std::max<std::int64_t>(0, track.keys_after - track.keys_before),
                                   std::max<std::int64_t>(0, track.keys_before - track.keys_after),
                                   track.largest_value_change ? Cell(*track.largest_value_change) : Cell()});
  }
  return {files, animations, tracks};
}

}  // namespace animdex::reports
