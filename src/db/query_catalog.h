#pragma once
// Named queries: queries/<name>.sql, embedded at build time. The header comment gives
//   -- description: one line
//   -- param: NAME TYPE [= DEFAULT] description   (TYPE: int, real or text; no default: required)
// and the body uses :NAME placeholders.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "db/sql_runner.h"

namespace animdex {

// How a parameter's value is read: int accepts decimal or 0x-hex, real any finite number, text
// anything as it is (so "007" stays 007).
enum class ParameterType { integer, real, text };

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
  std::string sql;
};

NamedQuery parse_named_query(std::string_view name, std::string_view text);

// All embedded named queries, sorted by name.
const std::vector<NamedQuery>& named_queries();
const NamedQuery* find_named_query(std::string_view name);

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
