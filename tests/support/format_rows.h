#pragma once
// Reading a parsed file's format rows (model/format_rows.h) in tests: the rows of one table, and
// one column's value.
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/animation.h"

namespace animdex::test {

inline std::vector<const model::FormatRow*> rows_of(const model::AnimationFile& file, std::string_view table) {
  std::vector<const model::FormatRow*> rows;
  for (const auto& row : file.format_rows)
    if (row.table == table) rows.push_back(&row);
  return rows;
}

inline const model::RowValue& value_of(const model::FormatRow& row, std::string_view column) {
  for (const auto& [name, value] : row.columns)
    if (name == column) return value;
  throw std::out_of_range(std::string(row.table) + " has no column " + std::string(column));
}

// The column as T (std::int64_t, double, std::string, model::AnimationRef), or throws when it holds another type.
template <typename T>
T get(const model::FormatRow& row, std::string_view column) {
  return std::get<T>(value_of(row, column));
}

inline bool is_null(const model::FormatRow& row, std::string_view column) {
  return std::holds_alternative<std::monostate>(value_of(row, column));
}

}  // namespace animdex::test
