#pragma once
// `animdex diff`: what changed between two dumps (two labels of one database, or two databases).
// Files are matched by path; animations by (path, animation key: motion ID, else name); tracks of
// a changed animation by (bone, channels). Built on the animation_catalog view.
#include <SQLiteCpp/Database.h>
#include <optional>
#include <string>
#include <vector>

#include "reports/diff_fields.h"
#include "reports/report_format.h"

namespace animdex::reports {

struct FileChange {
  std::string path, format, change;  // added, removed, changed
  std::vector<FieldChange> fields;   // changed files: what differs in its slots, fallbacks, model nodes
};

struct TrackChange {
  std::string track;   // "bone 3 (hip) R" (the name where the reference knows the bone), or the channel name
                       // when there is no bone; "#2" after a repeated (bone, channels)
  std::string change;  // added, removed, changed
  std::int64_t keys_before = 0, keys_after = 0;
  std::optional<double> largest_value_change;  // over keys present on both sides; empty without keyframes
  std::optional<std::int64_t> bone_id;
  std::optional<std::string> bone_name;
  std::string channels;
  std::optional<std::int64_t> before_track_id, after_track_id;  // bone_tracks.id on each side that has it
  std::vector<FieldChange> fields;  // changed tracks: flags, encoding, key count, interpolation, tangents, ...
};

struct AnimationChange {
  std::string owner, path, animation_key, change;  // added, removed, changed
  std::optional<std::string> name;
  std::vector<std::int64_t> states;  // KH2 Player/Raw motion-set states it is played in (newer side)
  std::vector<TrackChange> tracks;   // changed animations only
  std::optional<std::int64_t> from_animation_id, to_animation_id;  // animations.id on each side that has it
  std::vector<FieldChange> fields;  // changed animations: header and format rows (KH2 motion, node states)
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
// Files, then animations (one row, one line, per animation: the count of its changed tracks and the
// largest value change), then the changed tracks of the changed animations, one row each.
std::vector<Section> diff_sections(const DiffReport& report, bool with_chart);

// The only dump of a database, for `diff A.db B.db` without labels; throws when there are several.
std::string sole_dump(SQLite::Database& db, const std::string& what);

}  // namespace animdex::reports
