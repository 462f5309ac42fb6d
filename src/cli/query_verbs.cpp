// `animdex query`, `queries`, `sql` and `formats`: answers from a database or from the build.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include "cli/errors.h"
#include "core/nearest_names.h"
#include "output/json_text.h"
#include "cli/verb.h"
#include "detect/registry_table.h"
#include "db/database.h"
#include "db/parameter_checks.h"
#include "db/query_catalog.h"
#include "db/schema_docs.h"
#include "db/sql_runner.h"
#include "output/json_rows.h"
#include "containers/container_registry.h"
#include "formats/registry.h"

namespace animdex {

namespace {

// SQLite's own memory (sorts, recursive CTEs, caches) is capped too: past it a query fails with
// "out of memory" instead of growing without bound.
constexpr sqlite3_int64 kSqlHeapLimit = 512LL << 20;

struct SqlOptions {
  std::string text;  // the SQL ("-": read from standard input), or the named query's name or file
  std::string database;
  FormatOption format;
  Bindings parameters;
  ResultLimits limits;
  std::vector<std::filesystem::path> query_folders;  // --queries, then ANIMDEX_QUERIES
};

void add_database_options(CLI::App& command, SqlOptions& options, const char* parameter_help) {
  command.add_option("--db", options.database, "animdex database (default: $ANIMDEX_DB)")
      ->envname("ANIMDEX_DB")->required();
  command.add_option("-p,--param", options.parameters, parameter_help);
  add_format_option(command, options.format);
  command.add_option("--max-rows", options.limits.max_rows,
                     "At most this many rows: a named query prints its first N and a note, free SQL is refused "
                     "(add LIMIT); results are held in memory, at most 128 MiB")
      ->check(positive_number())->capture_default_str();
}

void add_query_folder_option(CLI::App& command, std::vector<std::filesystem::path>& folders) {
  command.add_option("--queries", folders,
                     "A folder of your own NAME.sql queries (same header as the built-in ones; repeatable; "
                     "also $ANIMDEX_QUERIES, ':'-separated)");
}

std::vector<NamedQuery> catalogue(const std::vector<std::filesystem::path>& folders) {
  auto all = folders;
  for (auto& folder : query_folders_from_environment()) {
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error))
      throw QueryUsageError(fmt::format("ANIMDEX_QUERIES names {}, which is not a folder", folder.string()));
    all.push_back(std::move(folder));
  }
  return query_catalogue(all);
}

// Prints results; an empty one says so on stderr too in table format, where a reader might
// otherwise take the bare header for a failure. Several results (several statements) are printed
// one after another, a blank line apart; json and jsonl hold one result, so they refuse several.
int print_results(const std::vector<ResultTable>& results, const FormatOption& format, std::ostream& out) {
  const auto kind = format.value();
  if (results.size() > 1 && (kind == OutputFormat::json || kind == OutputFormat::jsonl))
    return fail(kExitUsage, fmt::format("{} statements return rows and {} holds one result: run them one at a time, "
                                        "or use --format table, csv, tsv or markdown",
                                        results.size(), format.name));
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (i) out << '\n';
    write_table(out, results[i], kind, !format.no_header);
    if (results[i].rows.empty() && kind == OutputFormat::table)
      spdlog::warn("no rows: the query ran and nothing matched");
    if (results[i].cut_short)
      fmt::print(stderr, "animdex: note: the first {} rows are shown and there are more: raise --max-rows, or narrow "
                         "the query with -p\n", results[i].rows.size());
  }
  return kExitOk;
}

// Runs SQL read-only and prints the rows; maps failures to exit codes. A named query's values are
// checked against the database first (a label or character that does not exist is a usage error).
int print_sql(const SqlOptions& options, const std::string& sql, const Parameters& parameters, std::ostream& out,
              const NamedQuery* query = nullptr) {
  try {
    sqlite3_hard_heap_limit64(kSqlHeapLimit);
    auto db = open_read_only(options.database);
    Parameters checked = parameters;
    if (query) {
      std::vector<std::string> notes;
      checked = check_parameter_values(db, *query, parameters, notes);
      for (const auto& note : notes) spdlog::warn("{}", note);
    }
    auto limits = options.limits;
    limits.cut_at_max_rows = query != nullptr;  // a named query cannot take a LIMIT: its first rows, and a note
    return print_results(run_read_only_statements(db, sql, checked, limits), options.format, out);
  } catch (const QueryUsageError& error) {
    return fail(kExitUsage, error);
  } catch (const ParameterError& error) {
    return fail(kExitUsage, error);
  } catch (const WriteRefused& error) {
    return fail(kExitRefused, error);
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
}

// A name from the catalogue, or a path to a user's .sql file.
bool names_a_file(const std::string& text) {
  return text.ends_with(".sql") || text.find('/') != std::string::npos;
}

// `-p game kh2 -p game gnt4` would quietly answer for one of them: a usage error instead.
std::optional<std::string> repeated_parameter(const Bindings& parameters) {
  for (std::size_t i = 0; i < parameters.size(); ++i)
    for (std::size_t j = i + 1; j < parameters.size(); ++j)
      if (parameters[i].first == parameters[j].first)
        return fmt::format("-p {} is given twice ('{}' and '{}'); give each parameter once", parameters[i].first,
                           parameters[i].second, parameters[j].second);
  return std::nullopt;
}

int run_named_query(const SqlOptions& options, std::ostream& out) {
  if (auto repeated = repeated_parameter(options.parameters)) return fail(kExitUsage, *repeated);
  try {
    if (names_a_file(options.text)) {
      const auto query = load_query_file(options.text);
      return print_sql(options, query.sql, bind_parameters(query, options.parameters), out, &query);
    }
    const auto queries = catalogue(options.query_folders);
    const auto query = std::find_if(queries.begin(), queries.end(), [&](const auto& q) { return q.name == options.text; });
    if (query == queries.end()) {
      std::vector<std::string> names;
      for (const auto& known : queries) names.push_back(known.name);
      return fail(kExitUsage, fmt::format("no named query '{}'{}; `animdex queries` lists them", options.text,
                                          nearest_hint(options.text, names)));
    }
    return print_sql(options, query->sql, bind_parameters(*query, options.parameters), out, &*query);
  } catch (const QueryUsageError& error) {
    return fail(kExitUsage, error);
  }
}

// Free SQL: the statement, or standard input for "-" (as the sqlite3 shell reads a script).
int run_free_sql(const SqlOptions& options, std::ostream& out) {
  if (auto repeated = repeated_parameter(options.parameters)) return fail(kExitUsage, *repeated);
  std::string sql = options.text;
  if (sql == "-") {
    constexpr std::size_t kMaxScript = 16 << 20;
    sql.clear();
    char buffer[65536];
    while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
      sql.append(buffer, static_cast<std::size_t>(std::cin.gcount()));
      if (sql.size() > kMaxScript) return fail(kExitUsage, "sql -: standard input holds more than 16 MiB of SQL");
    }
    if (sql.find_first_not_of(" \t\r\n") == std::string::npos)
      return fail(kExitUsage, "sql -: standard input held no SQL");
  }
  return print_sql(options, sql, infer_parameters(options.parameters), out);
}

std::string parameter_summary(const QueryParameter& parameter) {
  std::string text = fmt::format("{} ({})", parameter.name, parameter_type_name(parameter.type));
  if (parameter.default_value) text += " = " + *parameter.default_value;
  return text + ": " + parameter.description;
}

nlohmann::ordered_json parameters_json(const NamedQuery& query) {
  auto parameters = nlohmann::ordered_json::array();
  for (const auto& parameter : query.parameters) {
    nlohmann::ordered_json item;
    item["name"] = parameter.name;
    item["type"] = parameter_type_name(parameter.type);
    item["required"] = parameter.required();
    // The default as its type reads it: `dummies int = 0` is the number 0, `= NULL` is null.
    const auto typed = parameter.default_value && parameter.type != ParameterType::text
                           ? infer_parameters({{parameter.name, *parameter.default_value}}).front().second
                           : Cell(parameter.default_value.value_or("NULL"));
    item["default"] = typed == Cell(std::string("NULL")) ? nlohmann::ordered_json(nullptr) : json_cell(typed);
    item["description"] = parameter.description;
    parameters.push_back(std::move(item));
  }
  return parameters;
}

nlohmann::ordered_json query_json(const NamedQuery& query, bool with_sql) {
  nlohmann::ordered_json item;
  item["name"] = query.name;
  item["description"] = query.description;
  item["parameters"] = parameters_json(query);
  item["example"] = example_command(query);
  item["formats"] = query.formats;  // empty: every format
  item["source"] = query.source;
  if (with_sql) item["sql"] = query.sql;
  return item;
}

struct QueriesOptions {
  std::string name;  // empty: list them all
  FormatOption format;
  std::vector<std::filesystem::path> query_folders;
};

// The formats a query reads (`-- formats:`), "every format" when it names none.
std::string formats_text(const NamedQuery& query) {
  return query.formats.empty() ? "every format" : fmt::format("{}", fmt::join(query.formats, ", "));
}

// One query in full: what it answers, its parameters, the formats it reads, an example and its SQL.
void write_query_details(const NamedQuery& query, std::ostream& out) {
  out << query.name << ": " << query.description << "\n\nparameters:\n";
  if (query.parameters.empty()) out << "  none\n";
  for (const auto& parameter : query.parameters) out << "  " << parameter_summary(parameter) << '\n';
  out << "\nformats: " << formats_text(query) << '\n';
  out << "\nexample:\n  " << example_command(query) << "\n\nsource: " << query.source << "\n\nSQL:\n" << query.sql;
  if (!query.sql.ends_with('\n')) out << '\n';
}

int run_queries(const QueriesOptions& options, std::ostream& out) {
  try {
    const auto queries = catalogue(options.query_folders);
    const bool json = options.format.value() == OutputFormat::json;
    if (!options.name.empty()) {
      const auto query = std::find_if(queries.begin(), queries.end(), [&](const auto& q) { return q.name == options.name; });
      if (query == queries.end())
        return fail(kExitUsage, fmt::format("no named query '{}'; `animdex queries` lists them", options.name));
      if (json) out << json_text(query_json(*query, true)) << '\n';
      else write_query_details(*query, out);
      return kExitOk;
    }
    if (json) {
      auto all = nlohmann::ordered_json::array();
      for (const auto& query : queries) all.push_back(query_json(query, false));
      out << json_text(all) << '\n';
      return kExitOk;
    }
    ResultTable table{{"name", "description", "parameters", "formats", "source"}, {}};
    for (const auto& query : queries) {
      std::string parameters;
      for (const auto& parameter : query.parameters) parameters += (parameters.empty() ? "" : "; ") + parameter_summary(parameter);
      table.rows.push_back({query.name, query.description, parameters, formats_text(query), query.source});
    }
    write_table(out, table, options.format.value(), !options.format.no_header);
    return kExitOk;
  } catch (const QueryUsageError& error) {
    return fail(kExitUsage, error);
  }
}

Verb queries_verb(CLI::App& app) {
  auto options = std::make_shared<QueriesOptions>();
  auto* command = app.add_subcommand("queries", "List the named queries, or show one in full (its SQL, parameters "
                                                "and an example)");
  command->add_option("name", options->name, "A query to show in full");
  add_format_option(*command, options->format, {"table", "csv", "tsv", "json", "markdown"});
  add_query_folder_option(*command, options->query_folders);
  add_examples(*command, {"animdex queries", "animdex queries bone-users", "animdex queries --format json",
                          "animdex queries --queries ~/my-queries"});
  return {command, [options](std::ostream& out) { return run_queries(*options, out); }};
}

// A verb that prints a table the build knows (no database).
Verb listing_verb(CLI::App& app, const char* name, const char* description, ResultTable (*table)(),
                  std::initializer_list<std::string_view> examples) {
  auto format = std::make_shared<FormatOption>();
  auto* command = app.add_subcommand(name, description);
  add_format_option(*command, *format);
  add_examples(*command, examples);
  return {command, [format, table](std::ostream& out) {
            write_table(out, table(), format->value(), !format->no_header);
            return static_cast<int>(kExitOk);
          }};
}

// The schema reference page (schema/README.md), generated from the DDL this build embeds.
Verb schema_verb(CLI::App& app) {
  auto* command = app.add_subcommand("schema", "Print the database schema reference (markdown, from the DDL)");
  add_examples(*command, {"animdex schema > schema/README.md"});
  return {command, [](std::ostream& out) {
            out << schema_reference_markdown();
            return static_cast<int>(kExitOk);
          }};
}

}  // namespace

std::vector<Verb> add_query_verbs(CLI::App& app) {
  auto query_options = std::make_shared<SqlOptions>();
  auto* query = app.add_subcommand("query", "Run a named query (see `animdex queries`) or your own query file");
  query->add_option("name", query_options->text, "Query name, e.g. bone-users, or a file, e.g. my/who-throws.sql")->required();
  add_database_options(*query, *query_options, "Query parameter: -p NAME VALUE or -p NAME=VALUE (repeatable)");
  add_query_folder_option(*query, query_options->query_folders);
  add_examples(*query, {"animdex query bone-users --db gnt4.db -p bone 0x76 -p dump ntsc",
                        "animdex query animations --db gnt4.db -p character nar --format markdown",
                        "animdex query dummy-slots --db kh2.db -p file=P_EX100",
                        "animdex query my-queries/throws.sql --db gnt4.db -p dump ntsc",
                        "ANIMDEX_DB=gnt4.db animdex query characters --format tsv --no-header"});

  auto sql_options = std::make_shared<SqlOptions>();
  auto* sql = app.add_subcommand("sql", "Run your own read-only SQL (statements that write are refused)");
  sql->add_option("statement", sql_options->text,
                  "SQL text, e.g. \"SELECT * FROM dumps\", or - to read it from standard input; several "
                  "statements print each result")->required();
  add_database_options(*sql, *sql_options, "Bind :NAME to VALUE: -p NAME VALUE (repeatable)");
  add_examples(*sql, {"animdex sql \"SELECT character, COUNT(*) FROM files GROUP BY 1\" --db gnt4.db --format csv",
                      "animdex sql \"SELECT * FROM files WHERE path LIKE :p\" --db gnt4.db -p p '%nar%'",
                      "animdex sql - --db gnt4.db < report.sql"});

  return {{query, [query_options](std::ostream& out) { return run_named_query(*query_options, out); }},
          {sql,
           [sql_options](std::ostream& out) {
             return run_free_sql(*sql_options, out);
           }},
          queries_verb(app),
          listing_verb(app, "formats", "List the file formats animdex detects and parses", &registered_kinds,
                       {"animdex formats"}),
          schema_verb(app)};
}

}  // namespace animdex
