#pragma once
// `animdex diff`: what changed between two dumps (two labels of one database, or two databases).
// Files are matched by path; animations by (path, animation key: motion ID, else name); tracks of
// a changed animation by (bone, channels). Built on the animation_catalog view.
#include <SQLiteCpp/Database.h>
#include <optional>
#include <string>
#include <vector>

#include "reports/report_format.h"

namespace animdex::reports {

struct FileChange {
  std::string path, format, change;  // added, removed, changed
};

struct TrackChange {
  std::string track;   // "bone 12 R", or the channel name when there is no bone
  std::string change;  // added, removed, changed
  std::int64_t keys_before = 0, keys_after = 0;
  std::optional<double> largest_value_change;  // over keys present on both sides; empty without keyframes
};

struct AnimationChange {
  std::string owner, path, animation_key, change;  // added, removed, changed
  std::optional<std::string> name;
  std::vector<TrackChange> tracks;  // changed animations only
};

struct DiffReport {
  std::string from_label, to_label;
  std::vector<FileChange> files;
  std::vector<AnimationChange> animations;
  std::int64_t unchanged_files = 0, unchanged_animations = 0;
  std::string caveat;  // why the comparison may overstate changes (dumps from different builds), or empty
};

DiffReport build_diff(SQLite::Database& from_db, const std::string& from_label, SQLite::Database& to_db,
                      const std::string& to_label);
std::vector<Section> diff_sections(const DiffReport& report, bool with_chart);

// The only dump of a database, for `diff A.db B.db` without labels; throws when there are several.
std::string sole_dump(SQLite::Database& db, const std::string& what);

}  // namespace animdex::reports
