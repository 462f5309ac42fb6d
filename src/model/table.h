#pragma once
// Rows and columns as plain values: what queries return and what a format's capabilities (pose,
// bake) answer with. Rendering lives in output/result_table.h; formats only fill these.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace animdex {

using Cell = std::variant<std::monostate, std::int64_t, double, std::string>;

struct ResultTable {
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
  bool cut_short = false;  // rows past a limit were left out (ResultLimits::cut_at_max_rows)
};

// A value a row may not have: NULL when absent (T: std::int64_t, double or std::string).
template <typename T>
Cell to_cell(const std::optional<T>& value) {
  return value ? Cell(*value) : Cell();
}

}  // namespace animdex
