// `animdex query`, `queries`, `sql` and `formats`: answers from a database or from the build.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>
#include <sqlite3.h>

#include "cli/errors.h"
#include "cli/verb.h"
#include "db/database.h"
#include "db/query_catalog.h"
#include "db/schema_docs.h"
#include "db/sql_runner.h"
#include "containers/container_registry.h"
#include "formats/registry.h"

namespace animdex {

namespace {

// SQLite's own memory (sorts, recursive CTEs, caches) is capped too: past it a query fails with
// "out of memory" instead of growing without bound.
constexpr sqlite3_int64 kSqlHeapLimit = 512LL << 20;

struct SqlOptions {
  std::string text;  // the SQL, or the named query's name
  std::string database;
  FormatOption format;
  Bindings parameters;
  ResultLimits limits;
};

void add_database_options(CLI::App& command, SqlOptions& options, const char* parameter_help) {
  command.add_option("--db", options.database, "animdex database")->required();
  command.add_option("-p,--param", options.parameters, parameter_help);
  add_format_option(command, options.format);
  command.add_option("--max-rows", options.limits.max_rows,
                     "Refuse results of more rows than this (results are held in memory; so is at most 128 MiB)")
      ->check(positive_number())->capture_default_str();
}

// Runs SQL read-only and prints the rows; maps failures to exit codes.
int print_sql(const SqlOptions& options, const std::string& sql, const Parameters& parameters, std::ostream& out) {
  try {
    sqlite3_hard_heap_limit64(kSqlHeapLimit);
    auto db = open_read_only(options.database);
    write_table(out, run_read_only_query(db, sql, parameters, options.limits), options.format.value());
    return kExitOk;
  } catch (const WriteRefused& error) {
    return fail(kExitRefused, error);
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
}

int run_named_query(const SqlOptions& options, std::ostream& out) {
  const NamedQuery* query = find_named_query(options.text);
  if (!query) return fail(kExitUsage, fmt::format("no named query '{}'; `animdex queries` lists them", options.text));
  try {
    return print_sql(options, query->sql, bind_parameters(*query, options.parameters), out);
  } catch (const QueryUsageError& error) {
    return fail(kExitUsage, error);
  }
}

ResultTable queries_table() {
  ResultTable table{{"name", "description", "parameters"}, {}};
  for (const auto& query : named_queries()) {
    std::string parameters;
    for (const auto& parameter : query.parameters) {
      if (!parameters.empty()) parameters += "; ";
      parameters += fmt::format("{} ({})", parameter.name, parameter_type_name(parameter.type));
      if (parameter.default_value) parameters += " = " + *parameter.default_value;
      parameters += ": " + parameter.description;
    }
    table.rows.push_back({query.name, query.description, parameters});
  }
  return table;
}

ResultTable formats_table() {
  ResultTable table{{"format", "kind", "description"}, {}};
  for (const auto& format : registered_formats())
    table.rows.push_back({std::string(format.id), std::string("animation"), std::string(format.description)});
  for (const auto& container : registered_containers())
  {
    table.rows.push_back({std::string(container.id), std::string("container"), std::string(container.description)});
    if (!container.companion_format.empty())
      table.rows.push_back({std::string(container.companion_format), std::string("container"),
                            fmt::format("the data file of {}: recorded, not parsed; its entries are {}'s members",
                                        container.id, container.id)});
  }
  return table;
}

// A verb that prints a table the build knows (no database).
Verb listing_verb(CLI::App& app, const char* name, const char* description, ResultTable (*table)(),
                  std::initializer_list<std::string_view> examples) {
  auto format = std::make_shared<FormatOption>();
  auto* command = app.add_subcommand(name, description);
  add_format_option(*command, *format);
  add_examples(*command, examples);
  return {command, [format, table](std::ostream& out) {
            write_table(out, table(), format->value());
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
  auto* query = app.add_subcommand("query", "Run a named query (see `animdex queries`)");
  query->add_option("name", query_options->text, "Query name, e.g. bone-users")->required();
  add_database_options(*query, *query_options, "Query parameter: -p NAME VALUE or -p NAME=VALUE (repeatable)");
  add_examples(*query, {"animdex query bone-users --db gnt4.db -p bone 0x76 -p dump ntsc",
                        "animdex query animations --db gnt4.db -p character nar --format markdown",
                        "animdex query dummy-slots --db kh2.db -p file=P_EX100"});

  auto sql_options = std::make_shared<SqlOptions>();
  auto* sql = app.add_subcommand("sql", "Run your own read-only SQL (statements that write are refused)");
  sql->add_option("statement", sql_options->text, "SQL text, e.g. \"SELECT * FROM dumps\"")->required();
  add_database_options(*sql, *sql_options, "Bind :NAME to VALUE: -p NAME VALUE (repeatable)");
  add_examples(*sql, {"animdex sql \"SELECT character, COUNT(*) FROM files GROUP BY 1\" --db gnt4.db --format csv",
                      "animdex sql \"SELECT * FROM files WHERE path LIKE :p\" --db gnt4.db -p p '%nar%'"});

  return {{query, [query_options](std::ostream& out) { return run_named_query(*query_options, out); }},
          {sql,
           [sql_options](std::ostream& out) {
             return print_sql(*sql_options, sql_options->text, infer_parameters(sql_options->parameters), out);
           }},
          listing_verb(app, "queries", "List the named queries with their descriptions and parameters", &queries_table,
                       {"animdex queries --format markdown"}),
          listing_verb(app, "formats", "List the file formats animdex detects and parses", &formats_table,
                       {"animdex formats"}),
          schema_verb(app)};
}

}  // namespace animdex
