#pragma once
// Named queries: queries/<name>.sql, embedded at build time, and a user's own NAME.sql files
// (`--queries DIR`, ANIMDEX_QUERIES). The header comment gives
//   -- description: one line
//   -- param: NAME TYPE [= DEFAULT] description   (TYPE: int, real or text; no default: required)
//   -- example: -p NAME VALUE ...                  (optional: the parameters of a typical use)
// and the body uses :NAME placeholders.
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "db/sql_runner.h"

namespace animdex {

// How a parameter's value is read: int accepts decimal or 0x-hex, real any finite number, text
// anything as it is (so "007" stays 007), and `int|text` an integer where the value reads as one,
// else the text (a bone by number or by name).
enum class ParameterType { integer, real, text, integer_or_text };

struct QueryParameter {
  std::string name;
  ParameterType type = ParameterType::text;
  std::optional<std::string> default_value;  // "NULL" means SQL NULL
  std::string description;
  bool required() const { return !default_value.has_value(); }
};

struct NamedQuery {
  std::string name;  // file stem, e.g. "bone-users"
  std::string description;
  std::vector<QueryParameter> parameters;
  std::string example;        // the parameters of a typical use, e.g. "-p bone 0x76"; may be empty
  // `-- formats: nsbca`: the formats the query reads; a `file` or `animation` value is looked for
  // in those formats' files only (empty: every format).
  std::vector<std::string> formats;
  std::string sql;
  std::string source = "built-in";  // or the user's file it was read from
};

NamedQuery parse_named_query(std::string_view name, std::string_view text);

// All embedded named queries, sorted by name.
const std::vector<NamedQuery>& named_queries();
const NamedQuery* find_named_query(std::string_view name);

// A user's query file (its name is the file's stem). Throws QueryUsageError naming the file when
// it cannot be read, is larger than 1 MiB, or its header is malformed.
NamedQuery load_query_file(const std::filesystem::path& path);

// The built-in queries and every NAME.sql of `folders`, sorted by name. A user's query may not take
// a built-in's name or another folder's (QueryUsageError naming both files): a name means one query.
std::vector<NamedQuery> query_catalogue(const std::vector<std::filesystem::path>& folders);

// The folders of ANIMDEX_QUERIES (':'-separated; empty entries skipped).
std::vector<std::filesystem::path> query_folders_from_environment();

// `animdex query NAME ...` with the required parameters: the example line `queries NAME` prints.
std::string example_command(const NamedQuery& query);

// A parameter the query does not declare, or a required one that was not given.
class QueryUsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The user's values for `query`, converted by their declared types, with the defaults filled in.
// A value that does not convert is a QueryUsageError naming the parameter.
Parameters bind_parameters(const NamedQuery& query, const Bindings& given);

std::string_view parameter_type_name(ParameterType type);

}  // namespace animdex
