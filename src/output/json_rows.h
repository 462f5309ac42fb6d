#pragma once
// Result tables as JSON values, for every verb and report that prints JSON: a cell as a JSON
// scalar (NULL, NaN and infinities as null: JSON has no such numbers), a table as an array of
// row objects keyed by column name.
#include <nlohmann/json.hpp>

#include "model/table.h"

namespace animdex {

nlohmann::ordered_json json_cell(const Cell& cell);
nlohmann::ordered_json json_rows(const ResultTable& table);

}  // namespace animdex
