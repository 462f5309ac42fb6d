#include "db/parameter_checks.h"

#include <SQLiteCpp/Statement.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>
#include <string_view>

#include "core/text.h"

namespace animdex {

namespace {

// How a value is matched against the values the database holds.
enum class Match {
  exact,
  any_case,   // exact, else a unique match in another case is taken, with a note
  substring,  // the query filters on "contains": some value must contain it
};

// `values_sql` lists the values a parameter may take (bound to :dump when the query narrows to one dump).
struct ValueCheck {
  const char* parameter;
  const char* what;  // how the message names a value
  const char* values_sql;
  Match match = Match::exact;
};

constexpr const char* kGameOf = "COALESCE((SELECT r.game FROM ref_formats r WHERE r.format = f.format), f.format)";

const std::vector<ValueCheck>& value_checks() {
  static const std::vector<ValueCheck> checks = [] {
    const std::string dump_filter = " JOIN dumps d ON d.id = f.dump_id WHERE (:dump IS NULL OR d.label = :dump)";
    static const std::string game_values =
        std::string("SELECT DISTINCT ") + kGameOf + " FROM animations a JOIN files f ON f.id = a.file_id" + dump_filter +
        " ORDER BY 1";
    static const std::string character_values =
        "SELECT DISTINCT f.character FROM files f" + dump_filter + " AND f.character IS NOT NULL ORDER BY 1";
    // A query's `-- formats:` narrow files and animations to those formats (:formats is ",a,b," or NULL).
    const std::string format_filter = " AND (:formats IS NULL OR instr(:formats, ',' || f.format || ',') > 0)";
    static const std::string file_values = "SELECT f.path FROM files f" + dump_filter + format_filter;
    static const std::string animation_values =
        "SELECT DISTINCT a.name FROM animations a JOIN files f ON f.id = a.file_id" + dump_filter + format_filter +
        " AND a.name IS NOT NULL ORDER BY 1";
    // A bone given by name (`int|text`): the names the dump's tracks carry (reference or model names).
    static const std::string bone_values =
        "SELECT DISTINCT t.bone_name FROM bone_tracks t JOIN animations a ON a.id = t.animation_id "
        "JOIN files f ON f.id = a.file_id" + dump_filter + " AND t.bone_name IS NOT NULL ORDER BY 1";
    return std::vector<ValueCheck>{
        {"from", "dump label", "SELECT label FROM dumps ORDER BY 1"},
        {"to", "dump label", "SELECT label FROM dumps ORDER BY 1"},
        {"character", "character", character_values.c_str(), Match::any_case},
        {"game", "game", game_values.c_str()},
        {"animation", "animation name", animation_values.c_str()},
        {"numbering", "numbering", "SELECT DISTINCT numbering FROM ref_motion_names ORDER BY 1"},
        {"file", "file path", file_values.c_str(), Match::substring},
        {"bone", "bone named", bone_values.c_str(), Match::any_case},
    };
  }();
  return checks;
}

std::optional<std::string> text_of(const Parameters& parameters, const std::string& name) {
  for (const auto& [parameter, value] : parameters)
    if (parameter == name)
      if (const auto* text = std::get_if<std::string>(&value)) return *text;
  return std::nullopt;
}

// Binds what a check's SQL narrows by: the dump, and the query's formats.
void bind_scope(SQLite::Statement& statement, const std::string_view sql, const NamedQuery& query,
                const std::optional<std::string>& dump) {
  if (sql.find(":dump") != std::string_view::npos) {
    if (dump) statement.bind(":dump", *dump);
    else statement.bind(":dump");
  }
  if (sql.find(":formats") == std::string_view::npos) return;
  if (query.formats.empty()) return statement.bind(":formats");
  std::string formats = ",";
  for (const auto& format : query.formats) formats += format + ",";
  statement.bind(":formats", formats);
}

std::vector<std::string> values_of(SQLite::Database& db, const NamedQuery& query, const ValueCheck& check,
                                   const std::optional<std::string>& dump) {
  SQLite::Statement statement(db, check.values_sql);
  bind_scope(statement, check.values_sql, query, dump);
  std::vector<std::string> values;
  while (statement.executeStep())
    if (!statement.getColumn(0).isNull()) values.push_back(statement.getColumn(0).getString());
  return values;
}

// "a, b, c" with at most 12 values, then how many more.
std::string listing(const std::vector<std::string>& values) {
  if (values.empty()) return "none";
  std::string text;
  for (std::size_t i = 0; i < values.size() && i < 12; ++i) text += (i ? ", " : "") + values[i];
  if (values.size() > 12) text += fmt::format(", ... ({} in all)", values.size());
  return text;
}

std::string where(const std::optional<std::string>& dump) {
  return dump ? fmt::format(" in dump '{}'", *dump) : std::string(" in this database");
}

// Where a value was looked for, with the formats the query reads when the check narrows to them.
std::string where(const NamedQuery& query, const ValueCheck& check, const std::optional<std::string>& dump) {
  if (query.formats.empty() || std::string_view(check.values_sql).find(":formats") == std::string_view::npos)
    return where(dump);
  return fmt::format("{} (among {} files, what query '{}' reads)", where(dump), fmt::join(query.formats, ", "),
                     query.name);
}

// The value to use for `given`, or a QueryUsageError saying what exists.
std::string checked_value(SQLite::Database& db, const NamedQuery& query, const ValueCheck& check,
                          const std::string& given, const std::optional<std::string>& dump,
                          std::vector<std::string>& notes) {
  if (check.match == Match::substring) {  // asked of SQLite: a dump may hold a million paths
    const std::string sql = std::string("SELECT 1 FROM (") + check.values_sql + ") WHERE instr(path, :value) > 0 LIMIT 1";
    SQLite::Statement find(db, sql);
    find.bind(":value", given);
    bind_scope(find, sql, query, dump);
    if (find.executeStep()) return given;
    throw QueryUsageError(fmt::format("query '{}': no {}{} contains '{}' (-p {}; `animdex sql \"SELECT path FROM "
                                      "files\"` lists them)",
                                      query.name, check.what, where(query, check, dump), given, check.parameter));
  }
  const auto values = values_of(db, query, check, dump);
  for (const auto& value : values)
    if (value == given) return given;
  if (check.match == Match::any_case) {
    std::vector<std::string> matches;
    for (const auto& value : values)
      if (equal_ignoring_case(value, given)) matches.push_back(value);
    if (matches.size() == 1) {
      notes.push_back(fmt::format("-p {} '{}' taken as '{}'", check.parameter, given, matches.front()));
      return matches.front();
    }
    if (matches.size() > 1)
      throw QueryUsageError(fmt::format("query '{}': -p {} '{}' matches several {} values ignoring case; give one exactly: {}",
                                        query.name, check.parameter, given, check.what, listing(matches)));
  }
  throw QueryUsageError(fmt::format("query '{}': no {} '{}'{} (-p {}); there are: {}", query.name, check.what, given,
                                    where(query, check, dump), check.parameter, listing(values)));
}

}  // namespace

Parameters check_parameter_values(SQLite::Database& db, const NamedQuery& query, Parameters parameters,
                                  std::vector<std::string>& notes) {
  // The dump first: the other values are looked for in it.
  const auto dump = text_of(parameters, "dump");
  if (dump) require_dump_label(db, *dump);
  for (auto& [name, value] : parameters) {
    const auto* text = std::get_if<std::string>(&value);
    if (!text || name == "dump") continue;
    for (const auto& check : value_checks())
      if (name == check.parameter)
        value = checked_value(db, query, check, *text, name == "from" || name == "to" ? std::nullopt : dump, notes);
  }
  return parameters;
}

void require_dump_label(SQLite::Database& db, const std::string& label, const std::string& option) {
  SQLite::Statement find(db, "SELECT 1 FROM dumps WHERE label = ?");
  find.bind(1, label);
  if (find.executeStep()) return;
  std::vector<std::string> labels;
  SQLite::Statement all(db, "SELECT label FROM dumps ORDER BY 1");
  while (all.executeStep()) labels.push_back(all.getColumn(0).getString());
  throw QueryUsageError(fmt::format("no dump labelled '{}' ({}); the database's dumps: {}", label, option,
                                    listing(labels)));
}

}  // namespace animdex
