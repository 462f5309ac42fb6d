#pragma once
// `animdex report reuse`: animations that are identical across characters or files, bone tracks
// reused inside different animations, and near-identical animations (same bones and key times,
// values within a tolerance). Built on the views reuse_groups, track_reuse and animation_catalog.
#include <SQLiteCpp/Database.h>
#include <optional>
#include <string>
#include <vector>

#include "reports/report_format.h"

namespace animdex::reports {

struct ReuseOptions {
  std::optional<std::string> dump;  // default: every dump
  double tolerance = 1e-3;          // near-identical: largest absolute value difference allowed
  std::int64_t min_track_keys = 2;  // track reuse: leave out tracks with fewer keys (constant poses)
  std::size_t chart_groups = 20;    // HTML: bars in the reuse chart
};

struct ReuseMember {
  std::string owner;
  std::string path;  // files.path: relative to the dump's root (a member: its container's path, '/', its own)
  std::string animation_key;
  std::optional<std::int64_t> motion_id;
  std::optional<std::string> name;
  std::string content_hash;
  std::int64_t animation_id = 0;
  std::vector<std::int64_t> states;  // KH2 Player/Raw motion-set states it is played in; empty elsewhere
};

// "files/chr/hak/0000.mot 320 Throw", "obj/P_EX100.mset 0 IDLE (battle, no weapon)": where the
// animation sits, relative to the dump's root, so members of same-named files stay distinct.
std::string member_label(const ReuseMember& member);

struct ReuseGroup {
  std::string dump, content_hash;  // near-identical groups: the shape hash
  std::vector<ReuseMember> members;
  std::int64_t track_count = 0, key_count = 0;
  double largest_difference = 0;   // near-identical groups only
};

struct TrackReuse {
  std::string dump, content_hash, channels;
  std::optional<std::int64_t> bone_id;
  std::optional<std::string> bone_name;
  std::int64_t key_count = 0;
  std::vector<ReuseMember> members;  // the animations holding the track
};

struct ReuseReport {
  std::vector<ReuseGroup> identical;
  std::vector<TrackReuse> tracks;
  std::vector<ReuseGroup> near_identical;
  std::vector<std::string> dumps_without_keyframes;  // near-identical needs stored keyframes
  std::vector<std::string> near_identical_cut_short;  // shape hashes whose comparison hit the cap
};

ReuseReport build_reuse_report(SQLite::Database& db, const ReuseOptions& options);
std::vector<Section> reuse_sections(const ReuseReport& report, const ReuseOptions& options, bool with_chart);

}  // namespace animdex::reports
