#include "db/parameter_checks.h"

#include <SQLiteCpp/Statement.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>
#include <string_view>

#include "core/listing.h"
#include "core/nearest_names.h"
#include "core/text.h"

namespace animdex {

namespace {

// How a value is matched against the values the database holds. The case rule is one for every
// parameter: the value as typed, else the one stored value (or, for a substring, stored text) that
// equals it ignoring ASCII case, taken with a note.
enum class Match {
  any_case,   // exact, else a unique match in another case
  substring,  // the query filters on "contains": some value must contain it (in another case: see above)
};

// `values_sql` lists the values a parameter may take (bound to :dump when the query narrows to one dump).
struct ValueCheck {
  const char* parameter;
  const char* what;  // how the message names a value
  const char* values_sql;
  Match match = Match::any_case;
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
        {"dump", "dump labelled", "SELECT label FROM dumps ORDER BY 1"},
        {"from", "dump labelled", "SELECT label FROM dumps ORDER BY 1"},
        {"to", "dump labelled", "SELECT label FROM dumps ORDER BY 1"},
        {"character", "character", character_values.c_str()},
        {"game", "game", game_values.c_str()},
        {"animation", "animation name", animation_values.c_str()},
        {"numbering", "numbering", "SELECT DISTINCT numbering FROM ref_motion_names ORDER BY 1"},
        {"file", "file path", file_values.c_str(), Match::substring},
        {"bone", "bone named", bone_values.c_str()},
    };
  }();
  return checks;
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

// Whether some value matches the LIKE pattern `given`, asked of SQLite: the very matching the
// query does (`%`, `_`, ASCII case ignored).
bool some_value_like(SQLite::Database& db, const NamedQuery& query, const ValueCheck& check, const std::string& given,
                     const std::optional<std::string>& dump) {
  const std::string sql =
      std::string("WITH v(value) AS (") + check.values_sql + ") SELECT 1 FROM v WHERE value LIKE :pattern LIMIT 1";
  SQLite::Statement find(db, sql);
  find.bind(":pattern", given);
  bind_scope(find, sql, query, dump);
  return find.executeStep();
}

// The stored text `given` names in another case: `given` itself when some path holds it as typed,
// else the spelling the first path that holds it ignoring case uses (the query compares as typed).
std::optional<std::string> substring_in_paths(SQLite::Database& db, const NamedQuery& query, const ValueCheck& check,
                                              const std::string& given, const std::optional<std::string>& dump) {
  // Asked of SQLite: a dump may hold a million paths.
  const std::string sql = std::string("SELECT path, instr(path, :value) FROM (") + check.values_sql +
                          ") WHERE instr(lower(path), lower(:value)) > 0 ORDER BY instr(path, :value) = 0 LIMIT 1";
  SQLite::Statement find(db, sql);
  find.bind(":value", given);
  bind_scope(find, sql, query, dump);
  if (!find.executeStep()) return std::nullopt;
  if (find.getColumn(1).getInt64() > 0) return given;
  const std::string path = find.getColumn(0).getString();
  const auto at = lowercase_ascii(path).find(lowercase_ascii(given));
  return path.substr(at, given.size());
}

// "; nearest: P_EX100.mset" for a mistyped file name: the file names (the last part of each path)
// nearest to the last part of `given`. Only asked on an error; the first kNamesLooked paths are
// enough to find a typo's file among a game's.
std::string nearest_file_names(SQLite::Database& db, const NamedQuery& query, const ValueCheck& check,
                               const std::string& given, const std::optional<std::string>& dump) {
  constexpr int kNamesLooked = 200'000;
  const std::string sql = std::string("SELECT DISTINCT replace(path, rtrim(path, replace(path, '/', '')), '') FROM (") +
                          check.values_sql + fmt::format(") LIMIT {}", kNamesLooked);
  SQLite::Statement names(db, sql);
  bind_scope(names, sql, query, dump);
  std::vector<std::string> found;
  while (names.executeStep()) found.push_back(names.getColumn(0).getString());
  const auto slash = given.rfind('/');
  return nearest_hint(slash == std::string::npos ? given : given.substr(slash + 1), found);
}

// KH2 objects are named in the reference (`(P) Sora`): a character code whose name, without its
// `(P) ` kind, is `given` ignoring case (`sora` -> `P_EX100`), when exactly one present code has it.
std::optional<std::string> character_by_name(SQLite::Database& db, const std::string& given,
                                             const std::vector<std::string>& present) {
  SQLite::Statement names(db, "SELECT code, name FROM ref_characters ORDER BY code");
  std::vector<std::string> found;
  while (names.executeStep()) {
    const std::string code = names.getColumn(0).getString();
    std::string_view name = names.getColumn(1).getText();
    if (name.starts_with("(") && name.find(") ") != std::string_view::npos) name.remove_prefix(name.find(") ") + 2);
    if (equal_ignoring_case(name, given) && std::find(present.begin(), present.end(), code) != present.end() &&
        std::find(found.begin(), found.end(), code) == found.end())
      found.push_back(code);
  }
  if (found.size() == 1) return found.front();
  return std::nullopt;
}

// The value to use for `given`, or a QueryUsageError saying what exists and what is nearest.
std::string checked_value(SQLite::Database& db, const NamedQuery& query, const ValueCheck& check,
                          const std::string& given, const std::optional<std::string>& dump,
                          std::vector<std::string>& notes) {
  const auto taken = [&](const std::string& value) {
    if (value != given) notes.push_back(fmt::format("-p {} '{}' taken as '{}'", check.parameter, given, value));
    return value;
  };
  if (check.match == Match::substring) {
    if (auto found = substring_in_paths(db, query, check, given, dump)) return taken(*found);
    throw QueryUsageError(fmt::format("query '{}': no {}{} contains '{}' (-p {}{}; `animdex sql \"SELECT path FROM "
                                      "files\"` lists them)",
                                      query.name, check.what, where(query, check, dump), given, check.parameter,
                                      nearest_file_names(db, query, check, given, dump)));
  }
  const auto values = values_of(db, query, check, dump);
  for (const auto& value : values)
    if (value == given) return given;
  // A bone name pattern (`head%`, matched by LIKE, which ignores ASCII case): some name must match.
  if (std::string_view(check.parameter) == "bone" && given.find('%') != std::string::npos) {
    if (some_value_like(db, query, check, given, dump)) return given;
    throw QueryUsageError(fmt::format("query '{}': no bone name matches '{}'{} (-p {}); there are: {}", query.name,
                                      given, where(query, check, dump), check.parameter, listing_text(values, "")));
  }
  std::vector<std::string> matches;
  for (const auto& value : values)
    if (equal_ignoring_case(value, given)) matches.push_back(value);
  if (matches.size() == 1) return taken(matches.front());
  if (matches.size() > 1)
    throw QueryUsageError(fmt::format("query '{}': -p {} '{}' matches several {} values ignoring case; give one exactly: {}",
                                      query.name, check.parameter, given, check.what, listing_text(matches, "")));
  if (std::string_view(check.parameter) == "character")
    if (auto code = character_by_name(db, given, values)) return taken(*code);
  throw QueryUsageError(fmt::format("query '{}': no {} '{}'{} (-p {}){}; there are: {}", query.name, check.what, given,
                                    where(query, check, dump), check.parameter, nearest_hint(given, values),
                                    listing_text(values, "")));
}

}  // namespace

Parameters check_parameter_values(SQLite::Database& db, const NamedQuery& query, Parameters parameters,
                                  std::vector<std::string>& notes) {
  // The dump first: the other values are looked for in it.
  std::optional<std::string> dump;
  for (auto& [name, value] : parameters)
    if (const auto* text = std::get_if<std::string>(&value); text && name == "dump") {
      value = checked_value(db, query, value_checks().front(), *text, std::nullopt, notes);
      dump = std::get<std::string>(value);
    }
  for (auto& [name, value] : parameters) {
    const auto* text = std::get_if<std::string>(&value);
    if (!text || name == "dump") continue;
    for (const auto& check : value_checks())
      if (name == check.parameter)
        value = checked_value(db, query, check, *text, name == "from" || name == "to" ? std::nullopt : dump, notes);
  }
  return parameters;
}

namespace {

std::vector<std::string> dump_labels(SQLite::Database& db) {
  std::vector<std::string> labels;
  SQLite::Statement all(db, "SELECT label FROM dumps ORDER BY 1");
  while (all.executeStep()) labels.push_back(all.getColumn(0).getString());
  return labels;
}

QueryUsageError no_such_dump(const std::string& label, const std::string& option, const std::vector<std::string>& labels) {
  return QueryUsageError(fmt::format("no dump labelled '{}' ({}){}; the database's dumps: {}", label, option,
                                     nearest_hint(label, labels), listing_text(labels, "")));
}

}  // namespace

void require_dump_label(SQLite::Database& db, const std::string& label, const std::string& option) {
  SQLite::Statement find(db, "SELECT 1 FROM dumps WHERE label = ?");
  find.bind(1, label);
  if (find.executeStep()) return;
  throw no_such_dump(label, option, dump_labels(db));
}

std::string checked_dump_label(SQLite::Database& db, const std::string& label, const std::string& option,
                               std::vector<std::string>& notes) {
  const auto labels = dump_labels(db);
  if (std::find(labels.begin(), labels.end(), label) != labels.end()) return label;
  std::vector<std::string> matches;
  for (const auto& stored : labels)
    if (equal_ignoring_case(stored, label)) matches.push_back(stored);
  if (matches.size() == 1) {
    notes.push_back(fmt::format("{} '{}' taken as '{}'", option, label, matches.front()));
    return matches.front();
  }
  throw no_such_dump(label, option, labels);
}

}  // namespace animdex
