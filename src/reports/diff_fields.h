#pragma once
// What `diff` compares besides key values: every stored field of a changed file, animation or
// track that differs between the two sides, with its before and after as the tables show them --
// a track's flag byte, encoding, key count, each key's interpolation and tangents; an animation's
// header and its format's rows (KH2 motion header, NSBCA node states); a file's KH2 slots and
// fallbacks and its model's bind pose. Each side is read from its own database by its own ids.
#include <SQLiteCpp/Database.h>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace animdex::reports {

struct FieldChange {
  std::string field;          // "flags", "interpolation at key 3", "slot(slot=12) motion_name"
  std::string before, after;  // as the tables show them (flags in hex); "absent" where a row is missing
};

// At most this many changes are listed per file, animation or track; past it one more entry says
// how many were left out, so a rewritten motion set does not print its every slot.
inline constexpr std::size_t kMaxFieldChanges = 40;

std::vector<FieldChange> file_field_changes(SQLite::Database& from, std::int64_t from_file, SQLite::Database& to,
                                            std::int64_t to_file);
std::vector<FieldChange> animation_field_changes(SQLite::Database& from, std::int64_t from_animation,
                                                 SQLite::Database& to, std::int64_t to_animation);
std::vector<FieldChange> track_field_changes(SQLite::Database& from, std::int64_t from_track, SQLite::Database& to,
                                             std::int64_t to_track);

// The file of dump `label` that `diff` matches by `match_path` (file_catalog.match_path).
std::optional<std::int64_t> file_id_of(SQLite::Database& db, const std::string& label, const std::string& match_path);

// "flags 0x05 -> 0x45": one change in one line, for the text formats.
std::string change_text(const FieldChange& change);

}  // namespace animdex::reports
