#pragma once
// The columns the writer fills in each common table, listed once: DumpWriter and the benchmark's
// SQLite floor (bench/) both insert exactly these, as named parameters (`:column`).
// The tables themselves are declared in schema/schema.sql; format tables come as FormatRows.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace animdex::table_columns {

inline constexpr std::string_view kFiles[] = {"dump_id", "path", "character", "format", "size", "mtime_ns",
                                              "content_hash", "status", "error", "error_offset", "animation_count",
                                              "parse_ms", "parent_id", "member_name", "member_offset",
                                              "stored_size", "compression", "stored_hash"};
inline constexpr std::string_view kAnimations[] = {"file_id", "slot", "motion_id", "name", "play_speed", "end_time",
                                                   "frame_count", "track_count", "key_count", "content_hash",
                                                   "shape_hash"};
inline constexpr std::string_view kBoneTracks[] = {"animation_id", "track_index", "bone_id", "bone_name", "flags",
                                                   "track_flags", "channels", "value_encoding", "key_count",
                                                   "total_time", "content_hash", "keys"};
inline constexpr std::string_view kKeyframeRows[] = {"track_id", "key_index", "time", "frame", "x", "y", "z", "w"};
inline constexpr std::string_view kKeySplineRows[] = {"track_id", "key_index", "shape", "linear_flag", "p1", "p2",
                                                   "p3", "p4", "p5", "p6"};
inline constexpr std::string_view kTrackBehaviors[] = {"track_id", "pre_behavior", "post_behavior"};
inline constexpr std::string_view kScanWarnings[] = {"dump_id", "path", "message"};

// Indexes a bulk load (a first index into an empty database, or a run replacing a large dump)
// builds after its rows instead of row by row (one sort instead of a B-tree insert per row; they
// come back with the schema's DDL before commit).
inline constexpr std::string_view kDeferredIndexes[] = {"bone_tracks_by_animation", "bone_tracks_by_bone"};

// "INSERT INTO table(a, b) VALUES (:a, :b)".
std::string insert_sql(std::string_view table, std::span<const std::string_view> columns);

// "UPDATE table SET (a, b) = (:a, :b) WHERE id = :id": the same parameter numbers, then :id.
std::string update_sql(std::string_view table, std::span<const std::string_view> columns);

// The parameter number of `column` in insert_sql(table, columns), found at compile time (a name
// not in the list does not compile): SQLite numbers named parameters from 1 in the order they
// first appear, which is the list's order (a test checks it against sqlite3_bind_parameter_index).
template <std::size_t N>
consteval int parameter(const std::string_view (&columns)[N], std::string_view column) {
  for (std::size_t i = 0; i < N; ++i)
    if (columns[i] == column) return static_cast<int>(i) + 1;
  throw "not a column of this insert";
}

}  // namespace animdex::table_columns
