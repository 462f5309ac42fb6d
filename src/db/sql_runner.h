#pragma once
// Runs SQL against a database opened read-only and returns the rows.
#include <SQLiteCpp/Database.h>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "output/result_table.h"

namespace animdex {

// A statement that would change the database (or attach another, or change settings).
class WriteRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A statement SQLite rejected (syntax, unknown column, ...).
class SqlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// name -> value as typed by the user; values that read as integers (decimal or 0x-hex)
// bind as integers, other numbers as reals, "NULL" as NULL, anything else as text.
using Bindings = std::vector<std::pair<std::string, std::string>>;

// Runs every statement in `sql` (all must be read-only) and returns the rows of the
// last one that has result columns. Throws WriteRefused before running anything that writes.
ResultTable run_read_only_sql(SQLite::Database& db, const std::string& sql, const Bindings& bindings = {});

}  // namespace animdex
