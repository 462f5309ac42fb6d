#pragma once
// What only one format has (KH2 slots, NSBCA node states, ...) reaches the database as plain rows
// of that format's own tables (`src/formats/<format>/<format>_tables.sql`). A parser appends them
// to AnimationFile::format_rows; the indexer resolves names, hashes the rows that describe an
// animation with it, and the writer inserts them by column name. Formats include no SQLite.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace animdex::model {

// Points at one of the file's animations (by position in AnimationFile::animations); the writer
// stores that animation's row id.
struct AnimationRef {
  std::size_t animation = 0;
};

// The name the game's reference data gives a motion ID (purpose, else motion name); the indexer
// replaces it with the name, or NULL when there is none.
struct MotionNameOf {
  std::int64_t motion_id = 0;
};

// A number the file holds exactly in a form wider than a float32's text (DS 1/4096 fixed point):
// stored and shown as it is. A plain `double` is a float32 from the file, stored under the float32
// rule (core/number_text.h as_stored).
struct ExactNumber {
  double value = 0.0;
};

using RowValue = std::variant<std::monostate, std::int64_t, double, std::string, AnimationRef, MotionNameOf, ExactNumber>;

// A number as a row value: integers as int64, floating point as double; NULL when absent.
template <typename T>
RowValue number(const T& value) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<double>(value);
  else return static_cast<std::int64_t>(value);
}
template <typename T>
RowValue number(const std::optional<T>& value) {
  return value ? number(*value) : RowValue();
}

struct RowColumn {
  std::string_view column;  // a column of `FormatRow::table`; always a string literal (static storage)
  RowValue value;
};

// One row of a format table. A row that describes one animation (`animation` set: KH2 frame data,
// NSBCA node states) gets that animation's `animation_id` and is part of its content hash; any
// other row belongs to the file and gets its `file_id`.
struct FormatRow {
  std::string_view table;  // a string literal, e.g. "mset_slots"
  std::optional<std::size_t> animation;
  std::vector<RowColumn> columns;
};

}  // namespace animdex::model
