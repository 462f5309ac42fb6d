#pragma once
// A whole database's rows as text, to compare two databases table by table.
#include <SQLiteCpp/Database.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace animdex::test {

// Every row of every stored table (virtual tables left out) as "table|value|value|..." lines, each
// value as SQLite's quote() writes it (blobs in hex, reals to the last bit), in sorted order; the
// columns named in `left_out` (times that differ run to run) are left out.
inline std::vector<std::string> all_rows(SQLite::Database& db, const std::set<std::string>& left_out = {}) {
  std::vector<std::string> lines;
  for (const auto& table : sql_lines(db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND "
                                         "name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")) {
    std::string values = "'" + table + "'";
    for (const auto& column : sql_lines(db, "SELECT name FROM pragma_table_info('" + table + "')"))
      if (!left_out.count(column)) values += " || '|' || quote(\"" + column + "\")";
    for (auto& line : sql_lines(db, "SELECT " + values + " FROM \"" + table + "\"")) lines.push_back(std::move(line));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace animdex::test
