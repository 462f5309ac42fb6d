#pragma once
// Runs SQL against a database opened read-only and returns the rows.
#include <SQLiteCpp/Database.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/table.h"

namespace animdex {

// A statement that would change the database (or attach another, or change settings).
class WriteRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A value given for a :NAME the SQL does not use, or a :NAME used without a value: a usage error,
// since running on would answer a different question (a NULL filter) without saying so.
class ParameterError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A statement SQLite rejected (syntax, unknown column, ...).
class SqlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// name -> value as typed by the user (`sql -p NAME VALUE`), before it has a type.
using Bindings = std::vector<std::pair<std::string, std::string>>;

// name -> value with its SQL type: what is bound to :NAME.
using Parameters = std::vector<std::pair<std::string, Cell>>;

// Free SQL has no declared types, so each value's type is read off its text: "NULL" is NULL, an
// integer written canonically (no leading zero, or 0x-hex) is an integer, another finite number a
// real, anything else text -- so "007" stays the text 007. Named queries declare their types
// (query_catalog.h) and do not guess.
Parameters infer_parameters(const Bindings& bindings);

// A finite decimal number written whole (no trailing text), or nullopt.
std::optional<double> parse_finite_real(std::string_view text);

// Runs every statement in `sql` (all must be read-only) and returns the rows of the
// last one that has result columns. Throws WriteRefused before running anything that writes.
// Results are held in memory: more than `limits.max_rows` rows or `limits.max_bytes` of cell data
// fail with SqlError (add LIMIT, or raise --max-rows), so a runaway query cannot take the machine.
struct ResultLimits {
  std::size_t max_rows = 1'000'000;
  std::size_t max_bytes = 128ULL << 20;
  // Past max_rows: stop and mark the table cut_short (a named query, which cannot take a LIMIT),
  // instead of refusing the result (free SQL, which can).
  bool cut_at_max_rows = false;
};
ResultTable run_read_only_query(SQLite::Database& db, const std::string& sql, const Parameters& parameters,
                                const ResultLimits& limits = {});
// Every result: one table per statement that has result columns, in order (`sql` prints each).
// The limits hold for all of them together.
std::vector<ResultTable> run_read_only_statements(SQLite::Database& db, const std::string& sql,
                                                  const Parameters& parameters, const ResultLimits& limits = {});
// The same with untyped values (infer_parameters).
ResultTable run_read_only_sql(SQLite::Database& db, const std::string& sql, const Bindings& bindings = {},
                              const ResultLimits& limits = {});

}  // namespace animdex
