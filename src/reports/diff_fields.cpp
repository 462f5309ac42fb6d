#include "reports/diff_fields.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <string_view>
#include <utility>

#include "core/number_text.h"

namespace animdex::reports {

namespace {

// The rows of `table` that belong to one owner (`owner` = id), told apart by `key` (none: one row),
// compared field by field. Fields named here are those a modder edits or the game reads; ids that
// only number rows in one database (file ids, link targets) are left out.
struct ComparedTable {
  std::string_view table, owner, row_name;
  std::vector<std::string_view> key, fields;
};

const std::vector<ComparedTable>& file_tables() {
  static const std::vector<ComparedTable> tables{
      {"mset_slots", "file_id", "slot", {"parent_slot", "slot"},
       {"entry_name", "entry_type_name", "motion_name", "is_dummy", "duplicate_of", "size"}},
      {"mset_resolution", "file_id", "fallback", {"parent_slot", "motion_id", "state"}, {"resolved_slot"}},
      {"model_nodes", "file_id", "node", {"model_index", "node_index"},
       {"name", "parent", "t_x", "t_y", "t_z", "q_x", "q_y", "q_z", "q_w", "s_x", "s_y", "s_z", "e_x", "e_y", "e_z"}},
  };
  return tables;
}

const std::vector<ComparedTable>& animation_tables() {
  static const std::vector<ComparedTable> tables{
      {"animations", "id", "", {}, {"name", "play_speed", "end_time", "frame_count", "track_count", "key_count"}},
      {"kh2_motions", "animation_id", "", {},
       {"kind", "bone_count", "total_bone_count", "fps", "frame_start", "frame_end", "frame_return"}},
      {"node_states", "animation_id", "node", {"node_index"}, {"node_id", "tag", "t_state", "r_state", "s_state"}},
      {"pattern_names", "animation_id", "name", {"kind", "name_index"}, {"name"}},
  };
  return tables;
}

const std::vector<ComparedTable>& track_tables() {
  static const std::vector<ComparedTable> tables{
      {"bone_tracks", "id", "", {}, {"flags", "track_flags", "value_encoding", "key_count", "total_time", "bone_name"}},
  };
  return tables;
}

// A column's value as the tables show it; flag words and tags in hex, as `info` prints them.
std::string value_text(const SQLite::Column& column, std::string_view name) {
  if (column.isNull()) return "NULL";
  if (column.isInteger()) {
    const auto value = column.getInt64();
    const bool hex = name.ends_with("flags") || name == "tag";
    return hex ? fmt::format("0x{:02X}", value) : std::to_string(value);
  }
  if (column.isFloat()) return shortest_text(column.getDouble());
  return column.getString();
}

struct Rows {
  std::vector<std::pair<std::string, std::vector<std::string>>> in_order;  // key text, field texts
  std::map<std::string, std::size_t> by_key;
};

bool has_table(SQLite::Database& db, std::string_view table) {
  SQLite::Statement find(db, "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?");
  find.bind(1, std::string(table));
  return find.executeStep();
}

// The owner's rows; a table this database does not have (an older schema) has none.
Rows rows_of(SQLite::Database& db, const ComparedTable& compared, std::int64_t owner) {
  if (!has_table(db, compared.table)) return {};
  std::string columns, order;
  for (const auto& column : compared.key) {
    columns += fmt::format("\"{}\", ", column);
    order += fmt::format("{}\"{}\"", order.empty() ? "" : ", ", column);
  }
  for (const auto& column : compared.fields) columns += fmt::format("\"{}\", ", column);
  columns.resize(columns.size() - 2);
  Rows rows;
  SQLite::Statement query(db, fmt::format("SELECT {} FROM main.\"{}\" WHERE \"{}\" = ?{}", columns, compared.table,
                                          compared.owner, order.empty() ? "" : " ORDER BY " + order));
  query.bind(1, owner);
  while (query.executeStep()) {
    std::string key;
    int c = 0;
    for (const auto& column : compared.key) {
      const auto value = query.getColumn(c++);
      if (!value.isNull()) key += fmt::format("{}{}={}", key.empty() ? "" : ", ", column, value_text(value, column));
    }
    std::vector<std::string> fields;
    for (const auto& column : compared.fields) fields.push_back(value_text(query.getColumn(c++), column));
    rows.by_key.emplace(key, rows.in_order.size());
    rows.in_order.emplace_back(std::move(key), std::move(fields));
  }
  return rows;
}

// Collects changes up to kMaxFieldChanges, then counts the rest.
class Changes {
 public:
  void add(std::string field, std::string before, std::string after) {
    if (list_.size() < kMaxFieldChanges) list_.push_back({std::move(field), std::move(before), std::move(after)});
    else ++left_out_;
  }
  std::vector<FieldChange> take() {
    if (left_out_ > 0) list_.push_back({fmt::format("{} more changes", left_out_), "", ""});
    return std::move(list_);
  }

 private:
  std::vector<FieldChange> list_;
  std::size_t left_out_ = 0;
};

std::string row_label(const ComparedTable& compared, const std::string& key) {
  if (compared.row_name.empty()) return "";
  return fmt::format("{}({})", compared.row_name, key);
}

void compare_table(const ComparedTable& compared, const Rows& before, const Rows& after, Changes& changes) {
  for (const auto& [key, fields] : before.in_order) {
    const auto found = after.by_key.find(key);
    const std::string row = row_label(compared, key);
    if (found == after.by_key.end()) {
      changes.add(row.empty() ? std::string(compared.table) : row, "present", "absent");
      continue;
    }
    const auto& other = after.in_order[found->second].second;
    for (std::size_t f = 0; f < fields.size(); ++f)
      if (fields[f] != other[f])
        changes.add(row.empty() ? std::string(compared.fields[f]) : row + " " + std::string(compared.fields[f]),
                    fields[f], other[f]);
  }
  for (const auto& [key, fields] : after.in_order)
    if (!before.by_key.count(key)) {
      const std::string row = row_label(compared, key);
      changes.add(row.empty() ? std::string(compared.table) : row, "absent", "present");
    }
}

void compare_tables(const std::vector<ComparedTable>& tables, SQLite::Database& from, std::int64_t from_owner,
                    SQLite::Database& to, std::int64_t to_owner, Changes& changes) {
  for (const auto& compared : tables)
    compare_table(compared, rows_of(from, compared, from_owner), rows_of(to, compared, to_owner), changes);
}

// A track's spline columns per key: shape (the interpolation), linear flag, p1..p6 (tangents and
// the other spline parameters), as text.
std::vector<std::vector<std::string>> splines_of(SQLite::Database& db, std::int64_t track) {
  std::vector<std::vector<std::string>> keys;
  SQLite::Statement query(db, "SELECT shape, linear_flag, p1, p2, p3, p4, p5, p6 FROM key_splines "
                              "WHERE track_id = ? ORDER BY key_index");
  query.bind(1, track);
  static constexpr std::string_view kNames[] = {"shape", "linear_flag", "p1", "p2", "p3", "p4", "p5", "p6"};
  while (query.executeStep()) {
    auto& key = keys.emplace_back();
    for (int c = 0; c < 8; ++c) key.push_back(value_text(query.getColumn(c), kNames[c]));
  }
  return keys;
}

// Per spline column, the first key (of those both sides have) where it differs, and how many do.
void compare_splines(const std::vector<std::vector<std::string>>& before,
                     const std::vector<std::vector<std::string>>& after, Changes& changes) {
  static constexpr std::string_view kFields[] = {"interpolation", "linear_flag", "p1", "p2", "p3", "p4", "p5", "p6"};
  for (std::size_t c = 0; c < 8; ++c) {
    std::size_t first = 0, differing = 0;
    for (std::size_t k = 0; k < std::min(before.size(), after.size()); ++k)
      if (before[k][c] != after[k][c] && differing++ == 0) first = k;
    if (differing == 0) continue;
    std::string field = fmt::format("{} at key {}", kFields[c], first);
    if (differing > 1) field += fmt::format(" (and {} more keys)", differing - 1);
    changes.add(std::move(field), before[first][c], after[first][c]);
  }
  if (before.empty() != after.empty())
    changes.add("splines", before.empty() ? "absent" : "present", after.empty() ? "absent" : "present");
}

}  // namespace

std::vector<FieldChange> file_field_changes(SQLite::Database& from, std::int64_t from_file, SQLite::Database& to,
                                            std::int64_t to_file) {
  Changes changes;
  compare_tables(file_tables(), from, from_file, to, to_file, changes);
  return changes.take();
}

std::vector<FieldChange> animation_field_changes(SQLite::Database& from, std::int64_t from_animation,
                                                 SQLite::Database& to, std::int64_t to_animation) {
  Changes changes;
  compare_tables(animation_tables(), from, from_animation, to, to_animation, changes);
  return changes.take();
}

std::vector<FieldChange> track_field_changes(SQLite::Database& from, std::int64_t from_track, SQLite::Database& to,
                                             std::int64_t to_track) {
  Changes changes;
  compare_tables(track_tables(), from, from_track, to, to_track, changes);
  compare_splines(splines_of(from, from_track), splines_of(to, to_track), changes);
  return changes.take();
}

std::optional<std::int64_t> file_id_of(SQLite::Database& db, const std::string& label, const std::string& match_path) {
  // As file_catalog.match_path: a member's path inside the image the dump was given as its root.
  SQLite::Statement query(db, "SELECT f.id FROM main.files f JOIN main.dumps d ON d.id = f.dump_id WHERE d.label = ? AND "
                              "CASE WHEN d.root_container IS NULL THEN f.path WHEN f.path = d.root_container THEN '' "
                              "ELSE substr(f.path, length(d.root_container) + 2) END = ?");
  query.bind(1, label);
  query.bind(2, match_path);
  if (!query.executeStep()) return std::nullopt;
  return query.getColumn(0).getInt64();
}

std::string change_text(const FieldChange& change) {
  if (change.before.empty() && change.after.empty()) return change.field;
  return fmt::format("{} {} -> {}", change.field, change.before, change.after);
}

}  // namespace animdex::reports
