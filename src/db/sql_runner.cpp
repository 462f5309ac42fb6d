#include "db/sql_runner.h"

#include <algorithm>

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>
#include <set>
#include <sqlite3.h>

#include "db/database.h"
#include "reference/reference_data.h"

namespace animdex {

namespace {

// Pragmas that only read; any other pragma with an argument could change settings.
const std::set<std::string, std::less<>> kReadOnlyPragmas = {
    "table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list",
    "integrity_check", "quick_check", "foreign_key_check", "table_list", "pragma_list", "function_list"};

int deny_side_effects(void*, int action, const char* argument1, const char* argument2, const char*, const char*) {
  switch (action) {
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
      return SQLITE_DENY;
    case SQLITE_PRAGMA:
      if (argument2 == nullptr) return SQLITE_OK;
      return kReadOnlyPragmas.count(argument1 ? argument1 : "") ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_FUNCTION: {
      // fts3_tokenizer hands out (one argument) and calls through (two) a raw pointer.
      const std::string_view name = argument2 ? argument2 : "";
      return name == "load_extension" || name == "fts3_tokenizer" ? SQLITE_DENY : SQLITE_OK;
    }
    default:
      return SQLITE_OK;
  }
}

struct StatementDeleter {
  void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};
using StatementPtr = std::unique_ptr<sqlite3_stmt, StatementDeleter>;

void bind_value(sqlite3_stmt* statement, int index, const Cell& value) {
  if (const auto* integer = std::get_if<std::int64_t>(&value)) sqlite3_bind_int64(statement, index, *integer);
  else if (const auto* real = std::get_if<double>(&value)) sqlite3_bind_double(statement, index, *real);
  else if (const auto* text = std::get_if<std::string>(&value))
    sqlite3_bind_text(statement, index, text->c_str(), static_cast<int>(text->size()), SQLITE_TRANSIENT);
  else sqlite3_bind_null(statement, index);
}

void bind_all(sqlite3_stmt* statement, const Parameters& parameters) {
  for (int index = 1; index <= sqlite3_bind_parameter_count(statement); ++index) {
    const char* name = sqlite3_bind_parameter_name(statement, index);
    if (!name) continue;
    const std::string_view bare = std::string_view(name).substr(1);  // drop ':', '@' or '$'
    for (const auto& [key, value] : parameters)
      if (key == bare) bind_value(statement, index, value);
  }
}

// "007", "-012" and "00.5": a leading zero before another digit marks a code or label, not a number.
bool zero_padded(std::string_view text) {
  if (text.starts_with("-")) text.remove_prefix(1);
  return text.size() >= 2 && text[0] == '0' && text[1] >= '0' && text[1] <= '9';
}

Cell column_cell(sqlite3_stmt* statement, int column) {
  switch (sqlite3_column_type(statement, column)) {
    case SQLITE_INTEGER: return static_cast<std::int64_t>(sqlite3_column_int64(statement, column));
    // A stored value is already under the number rule (core/number_text.h); an expression's
    // result prints so that it reads back as the same double (0.1 + 0.2 is 0.30000000000000004).
    case SQLITE_FLOAT: return sqlite3_column_double(statement, column);
    case SQLITE_NULL: return std::monostate{};
    case SQLITE_BLOB: {
      const auto* bytes = static_cast<const unsigned char*>(sqlite3_column_blob(statement, column));
      std::string hex = "x'";
      for (int i = 0; i < sqlite3_column_bytes(statement, column); ++i) hex += fmt::format("{:02x}", bytes[i]);
      return hex + "'";
    }
    default: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
      return std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(statement, column)));
    }
  }
}

// Prepares every statement first, so nothing runs unless all of them are read-only.
std::vector<StatementPtr> prepare_all(sqlite3* handle, const std::string& sql) {
  std::vector<StatementPtr> statements;
  const char* tail = sql.c_str();
  const char* end = sql.c_str() + sql.size();
  while (tail < end) {
    sqlite3_stmt* raw = nullptr;
    const char* next = nullptr;
    const int rc = sqlite3_prepare_v2(handle, tail, static_cast<int>(end - tail), &raw, &next);
    StatementPtr statement(raw);
    // A denied function reports SQLITE_ERROR with "not authorized", a denied action SQLITE_AUTH.
    if (rc == SQLITE_AUTH || std::string_view(sqlite3_errmsg(handle)).find("not authorized") != std::string_view::npos)
      throw WriteRefused(fmt::format("refused: the statement would attach a database, change a setting or load "
                                     "code ({}); `sql` and `query` only read",
                                     sqlite3_errmsg(handle)));
    if (rc != SQLITE_OK) throw SqlError(sqlite3_errmsg(handle));
    tail = next;
    if (!statement) continue;  // whitespace or a comment
    if (!sqlite3_stmt_readonly(statement.get()))
      throw WriteRefused(fmt::format("refused: `{}` would write to the database; `sql` and `query` only read",
                                     std::string(sqlite3_sql(statement.get())).substr(0, 80)));
    statements.push_back(std::move(statement));
  }
  return statements;
}

}  // namespace

Parameters infer_parameters(const Bindings& bindings) {
  Parameters parameters;
  for (const auto& [name, text] : bindings) {
    Cell value = text;
    if (text == "NULL") value = std::monostate{};
    else if (zero_padded(text)) value = text;
    else if (auto integer = parse_integer(text)) value = *integer;
    else if (auto real = parse_finite_real(text)) value = *real;
    parameters.emplace_back(name, std::move(value));
  }
  return parameters;
}

std::optional<double> parse_finite_real(std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

ResultTable run_read_only_sql(SQLite::Database& db, const std::string& sql, const Bindings& bindings,
                              const ResultLimits& limits) {
  return run_read_only_query(db, sql, infer_parameters(bindings), limits);
}

ResultTable run_read_only_query(SQLite::Database& db, const std::string& sql, const Parameters& parameters,
                                const ResultLimits& limits) {
  auto results = run_read_only_statements(db, sql, parameters, limits);
  return results.empty() ? ResultTable{} : std::move(results.back());
}

namespace {

// Every :NAME the statements use has a value, and every value given is used.
void check_parameter_names(const std::vector<StatementPtr>& statements, const Parameters& parameters) {
  std::vector<std::string> used;
  for (const auto& statement : statements)
    for (int index = 1; index <= sqlite3_bind_parameter_count(statement.get()); ++index)
      if (const char* name = sqlite3_bind_parameter_name(statement.get(), index)) used.emplace_back(name + 1);
  for (const auto& name : used)
    if (std::none_of(parameters.begin(), parameters.end(), [&](const auto& given) { return given.first == name; }))
      throw ParameterError(fmt::format("the SQL uses :{} but no value was given: add -p {} VALUE", name, name));
  for (const auto& [name, value] : parameters)
    if (std::find(used.begin(), used.end(), name) == used.end())
      throw ParameterError(fmt::format("-p {} is not used by the SQL (it has no :{})", name, name));
}

}  // namespace

std::vector<ResultTable> run_read_only_statements(SQLite::Database& db, const std::string& sql,
                                                  const Parameters& parameters, const ResultLimits& limits) {
  sqlite3* handle = db.getHandle();
  sqlite3_set_authorizer(handle, &deny_side_effects, nullptr);
  struct ClearAuthorizer {
    sqlite3* handle;
    ~ClearAuthorizer() { sqlite3_set_authorizer(handle, nullptr, nullptr); }
  } clear{handle};

  auto statements = prepare_all(handle, sql);
  check_parameter_names(statements, parameters);
  std::vector<ResultTable> results;
  std::size_t rows = 0;
  std::size_t bytes = 0;
  for (auto& statement : statements) {
    bind_all(statement.get(), parameters);
    ResultTable current;
    const int column_count = sqlite3_column_count(statement.get());
    for (int c = 0; c < column_count; ++c) current.columns.emplace_back(sqlite3_column_name(statement.get(), c));
    int rc;
    while ((rc = sqlite3_step(statement.get())) == SQLITE_ROW) {
      if (rows++ == limits.max_rows) {
        if (!limits.cut_at_max_rows)
          throw SqlError(fmt::format("the result has more than {} rows; add LIMIT, or raise --max-rows", limits.max_rows));
        current.cut_short = true;
        rc = SQLITE_DONE;
        break;
      }
      auto& row = current.rows.emplace_back();
      for (int c = 0; c < column_count; ++c) {
        row.push_back(column_cell(statement.get(), c));
        bytes += sizeof(Cell) + static_cast<std::size_t>(sqlite3_column_bytes(statement.get(), c));
      }
      if (bytes > limits.max_bytes)
        throw SqlError(fmt::format("the result is larger than {} MiB after {} rows; add LIMIT or select fewer columns",
                                   limits.max_bytes >> 20, current.rows.size()));
    }
    if ((rc & 0xFF) == SQLITE_INTERRUPT) throw SqlError(read_time_budget_text());
    if ((rc & 0xFF) == SQLITE_TOOBIG) throw SqlError(value_too_big_text());
    if (rc != SQLITE_DONE) throw SqlError(sqlite3_errmsg(handle));
    if (column_count > 0) results.push_back(std::move(current));
  }
  return results;
}

}  // namespace animdex
