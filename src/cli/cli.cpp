#include "cli/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <iostream>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <sqlite3.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "db/database.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "formats/registry.h"
#include "indexer/pipeline.h"
#include "output/output_file.h"
#include "sample/sample_dump.h"

namespace animdex {

namespace {

// Output format options are read as text and converted after parsing, so a bad value gets
// CLI11's plain "not in {...}" message.
struct FormatOption {
  std::string name = "table";
  OutputFormat value() const { return parse_output_format(name).value_or(OutputFormat::table); }
};

void add_format_option(CLI::App& command, FormatOption& format,
                       const std::vector<std::string>& allowed = {"table", "csv", "json", "markdown"}) {
  std::string help = "Output format:";
  for (const auto& name : allowed) help += " " + name;
  command.add_option("-f,--format", format.name, help)
      ->check(CLI::IsMember(allowed, CLI::ignore_case))
      ->capture_default_str();
}

struct CommonOptions {
  std::string database;
  FormatOption format;
  std::vector<std::pair<std::string, std::string>> parameters;
  ResultLimits limits;
};

constexpr sqlite3_int64 kSqlHeapLimit = 512LL << 20;

void add_limit_option(CLI::App& command, CommonOptions& options) {
  command.add_option("--max-rows", options.limits.max_rows,
                     "Refuse results of more rows than this (results are held in memory; so is at most 128 MiB)")
      ->check(CLI::PositiveNumber)->capture_default_str();
}

// A time or frame must be a number: "nan" and "inf" parse as doubles but mean nothing here.
const CLI::Validator kFiniteNumber(
    [](const std::string& text) {
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      return end != text.c_str() && *end == '\0' && std::isfinite(value) ? std::string()
                                                                          : "expected a finite number, got " + text;
    },
    "NUMBER");

// `index` needs a file it can keep: "" and ":memory:" would index into a database that is
// thrown away, and "file:" URIs are not paths.
std::optional<std::string> check_index_database(const std::string& path) {
  if (path.empty()) return "--db needs a file name";
  if (path == ":memory:" || path.starts_with("file:"))
    return fmt::format("--db {}: index needs a database file to keep, not an in-memory or URI database", path);
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) return fmt::format("--db {} is a folder; give a file name", path);
  return std::nullopt;
}

int report_error(const std::exception& error, int code) {
  fmt::print(stderr, "animdex: error: {}\n", error.what());
  return code;
}

// Runs SQL read-only and prints the rows; maps failures to exit codes.
int print_sql(const std::string& database, const std::string& sql, const Parameters& parameters, OutputFormat format,
              std::ostream& out, const ResultLimits& limits) {
  try {
    // SQLite's own memory (sorts, recursive CTEs, caches) is capped too: past it a query fails
    // with "out of memory" instead of growing without bound.
    sqlite3_hard_heap_limit64(kSqlHeapLimit);
    auto db = open_read_only(database);
    write_table(out, run_read_only_query(db, sql, parameters, limits), format);
    return kExitOk;
  } catch (const WriteRefused& error) {
    return report_error(error, kExitRefused);
  } catch (const std::exception& error) {
    return report_error(error, kExitFatal);
  }
}

int run_named_query(const std::string& name, const CommonOptions& options, std::ostream& out) {
  const NamedQuery* query = find_named_query(name);
  if (!query) {
    fmt::print(stderr, "animdex: error: no named query '{}'; `animdex queries` lists them\n", name);
    return kExitUsage;
  }
  Parameters bindings;
  try {
    bindings = bind_parameters(*query, options.parameters);
  } catch (const QueryUsageError& error) {
    return report_error(error, kExitUsage);
  }
  return print_sql(options.database, query->sql, bindings, options.format.value(), out, options.limits);
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
  ResultTable table{{"format", "description"}, {}};
  for (const auto& format : registered_formats())
    table.rows.push_back({std::string(format.id), std::string(format.description)});
  return table;
}

int run_index_command(IndexOptions options, bool quiet) {
  try {
    const auto summary = run_index(options);
    if (!quiet) {
      for (const auto& warning : summary.warnings)
        spdlog::warn("{}: {}", terminal_safe(warning.relative_path), terminal_safe(warning.message));
      const auto& totals = summary.totals;
      fmt::print(stderr,
                 "indexed {} files as dump '{}' in {:.2f} s: {} ok, {} errors, {} not animation files; "
                 "{} animations\n",
                 totals.files, terminal_safe(options.label), summary.seconds, totals.ok, totals.errors, totals.unknown,
                 totals.animations);
      if (totals.incremental)
        fmt::print(stderr, "updated in place: {} files unchanged, {} parsed (new or changed), {} removed\n",
                   totals.unchanged, totals.parsed, totals.removed);
      else
        fmt::print(stderr, "parsed {} files: {} tracks, {} keys\n", totals.parsed, totals.tracks, totals.keys);
      if (totals.errors > 0)
        fmt::print(stderr, "see them with: animdex query errors --db {} -p dump {}\n", options.database.string(),
                   options.label);
    }
    return summary.totals.errors > 0 ? kExitFileErrors : kExitOk;
  } catch (const std::exception& error) {
    return report_error(error, kExitFatal);
  }
}

constexpr const char* kFooter = R"(Exit codes: 0 ok; 1 fatal error (database, I/O, SQL); 2 usage error;
3 finished but some input files had errors; 4 a statement that would write was refused.
Examples:
  animdex demo
  animdex index /path/to/gnt4/root --db gnt4.db --label ntsc
  animdex query bone-users --db gnt4.db -p bone 0x76
  animdex sql "SELECT character, COUNT(*) FROM files GROUP BY 1" --db gnt4.db --format csv
  animdex query dummy-slots --db kh2.db -p file=P_EX100
  animdex report docs --db gnt4.db --out docs
  animdex diff --db gnt4.db --from ntsc --to pal --format markdown)";

}  // namespace

int run_verb(int argc, const char* const* argv, std::ostream& out);

// `-p NAME=VALUE` is what people type; the parser wants `-p NAME VALUE`. A token after -p/--param
// is split at its first '=' when NAME is an identifier and no value token follows it.
std::vector<std::string> split_parameter_assignments(int argc, const char* const* argv) {
  std::vector<std::string> arguments(argv, argv + argc);
  std::vector<std::string> result;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    result.push_back(arguments[i]);
    if ((arguments[i] != "-p" && arguments[i] != "--param") || i + 1 >= arguments.size()) continue;
    const std::string& token = arguments[i + 1];
    const auto equals = token.find('=');
    const bool identifier = equals != std::string::npos && equals > 0 &&
                            std::all_of(token.begin(), token.begin() + static_cast<std::ptrdiff_t>(equals), [](char c) {
                              return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                            });
    const bool value_follows = i + 2 < arguments.size() && !arguments[i + 2].starts_with('-');
    if (!identifier || value_follows) continue;
    result.push_back(token.substr(0, equals));
    result.push_back(token.substr(equals + 1));
    ++i;
  }
  return result;
}

int run_cli(int argc, const char* const* argv, std::ostream& out) {
  const int code = run_verb(argc, argv, out);
  if (flush_succeeded(out)) return code;
  fmt::print(stderr, "animdex: error: cannot write the output: {}\n", std::strerror(errno ? errno : EIO));
  return kExitFatal;
}

int run_verb(int argc, const char* const* argv, std::ostream& out) {
  auto logger = spdlog::stderr_color_mt("animdex");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("animdex: %l: %v");
  spdlog::set_level(spdlog::level::warn);
  struct DropLogger {
    ~DropLogger() { spdlog::drop("animdex"); }
  } drop_logger;

  CLI::App app{"animdex: index game animation files (GNT .mot, KH2 .mset/.anb, NDS .nsbca, LightWave .mot/.env) "
               "into SQLite, query them, and report on reuse and changes",
               "animdex"};
  app.footer(kFooter);
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("animdex ") + ANIMDEX_VERSION);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "More messages on stderr");

  // index
  IndexOptions index_options;
  std::vector<std::string> roots;
  std::string database_for_index;
  bool quiet = false;
  auto* index = app.add_subcommand("index", "Scan folders, parse every animation file, store one dump in a database");
  index->add_option("roots", roots, "Folders (or files) to scan, recursively")->required()->check(CLI::ExistingPath);
  index->add_option("--db", database_for_index, "SQLite database to create or update")->required();
  index->add_option("-l,--label", index_options.label, "Name of this dump; re-indexing a label replaces it")
      ->capture_default_str();
  index->add_option("-j,--threads", index_options.threads, "Parser threads (0: one per core)")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  index->add_option("--max-file-size", index_options.max_file_size,
                    "Files larger than this many bytes are detected but not parsed (default 16 MiB; real animation "
                    "files are under 3 MB)")->capture_default_str();
  double lock_wait_seconds = 60.0;
  index->add_option("--wait", lock_wait_seconds,
                    "Seconds to wait for another `index` writing the same database before giving up")
      ->check(CLI::NonNegativeNumber)->check(kFiniteNumber)->capture_default_str();
  double parse_timeout_seconds = 30.0;
  index->add_option("--parse-timeout", parse_timeout_seconds,
                    "Seconds one file's parse may take before it is recorded as an error")
      ->check(CLI::PositiveNumber)->check(kFiniteNumber)->capture_default_str();
  bool full = false;
  index->add_flag("--full", full, "Re-parse every file (default: keep the rows of files whose size and time, or "
                                  "content, are unchanged since the label was last indexed)");
  std::string keyframe_storage = "rows";
  index->add_option("--keyframes", keyframe_storage, "Store keyframe rows (rows) or only tracks and counts (none)")
      ->check(CLI::IsMember({"rows", "none"}))->capture_default_str();
  index->add_flag("-q,--quiet", quiet, "No progress line, warnings or summary");

  // query
  CommonOptions query_options;
  std::string query_name;
  auto* query = app.add_subcommand("query", "Run a named query (see `animdex queries`)");
  query->add_option("name", query_name, "Query name, e.g. bone-users")->required();
  query->add_option("--db", query_options.database, "animdex database")->required();
  query->add_option("-p,--param", query_options.parameters, "Query parameter: -p NAME VALUE or -p NAME=VALUE (repeatable)");
  add_format_option(*query, query_options.format);
  add_limit_option(*query, query_options);

  // queries
  FormatOption queries_format;
  auto* queries = app.add_subcommand("queries", "List the named queries with their descriptions and parameters");
  add_format_option(*queries, queries_format);

  // sql
  CommonOptions sql_options;
  std::string sql_text;
  auto* sql = app.add_subcommand("sql", "Run your own read-only SQL (statements that write are refused)");
  sql->add_option("statement", sql_text, "SQL text, e.g. \"SELECT * FROM dumps\"")->required();
  sql->add_option("--db", sql_options.database, "animdex database")->required();
  sql->add_option("-p,--param", sql_options.parameters, "Bind :NAME to VALUE: -p NAME VALUE (repeatable)");
  add_format_option(*sql, sql_options.format);
  add_limit_option(*sql, sql_options);

  // info
  InfoOptions info_options;
  auto* info = app.add_subcommand("info", "Parse one file and print its structure (no database)");
  info->add_option("file", info_options.file, "The file to parse")->required()->check(CLI::ExistingFile);
  FormatOption info_format;
  add_format_option(*info, info_format, {"table", "json", "markdown"});
  info->add_flag("-k,--keys", info_options.show_keys, "Also list every key (json always has them)");

  // formats
  FormatOption formats_format;
  auto* formats = app.add_subcommand("formats", "List the file formats animdex detects and parses");
  add_format_option(*formats, formats_format);

  // sample
  std::string sample_directory;
  SampleDumpOptions sample_options;
  bool no_problem_files = false;
  auto* sample = app.add_subcommand("sample", "Write the built-in sample dump (GNT4-like; KH2 and NSBCA files on request) to a folder");
  sample->add_option("directory", sample_directory, "Where to write it (created if needed)")->required();
  sample->add_option("-c,--characters", sample_options.character_count, "How many characters (1-41)")
      ->check(CLI::Range(1, 41))->capture_default_str();
  sample->add_flag("--no-problem-files", no_problem_files, "Leave out the broken and non-GNT files");
  sample->add_flag("--kh2", sample_options.include_kh2,
                   "Add KH2 files: a Player motion set with dummies, a Default set with a nested set, an ANB");
  sample->add_flag("--nsbca", sample_options.include_nsbca,
                   "Add an NSBCA file: two animations (steps 1 and 2) with identity, animated and bind-pose nodes");
  bool sample_force = false;
  sample->add_flag("--force", sample_force, "Write into a folder that is not empty (files of the same name are replaced)");

  // report reuse / report docs
  auto* report = app.add_subcommand("report", "Reports: reuse across characters, documentation tables");
  report->require_subcommand(1);
  ReuseCommandOptions reuse_options;
  auto* reuse = report->add_subcommand(
      "reuse", "Identical animations across characters or files, reused bone tracks, near-identical animations");
  reuse->add_option("--db", reuse_options.database, "animdex database")->required();
  reuse->add_option("--dump", reuse_options.dump, "Only this dump label (default: every dump)");
  reuse->add_option("-f,--format", reuse_options.format, "Output format: markdown html csv json table")
      ->check(CLI::IsMember({"markdown", "html", "csv", "json", "table"}))->capture_default_str();
  reuse->add_option("--tolerance", reuse_options.tolerance,
                    "Near-identical: largest absolute value difference allowed")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  reuse->add_option("--min-track-keys", reuse_options.min_track_keys,
                    "Track reuse: leave out tracks with fewer keys (constant poses)")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  reuse->add_option("-o,--out", reuse_options.output, "Write to this file instead of standard output");
  DocsCommandOptions docs_options;
  auto* docs = report->add_subcommand(
      "docs", "Wiki-style tables as markdown files plus one self-contained HTML page with charts");
  docs->add_option("--db", docs_options.database, "animdex database")->required();
  docs->add_option("--out", docs_options.output, "Folder to write into (created)")->required();
  docs->add_option("--dump", docs_options.dump, "Only this dump label (default: every dump)");

  // diff
  DiffCommandOptions diff_options;
  auto* diff = app.add_subcommand(
      "diff", "What changed between two dumps: --db F --from A --to B, or two databases A.db B.db");
  diff->add_option("databases", diff_options.databases, "One or two database files")->expected(0, 2);
  diff->add_option("--db", diff_options.database, "Database holding both dumps");
  diff->add_option("--from", diff_options.from, "Label of the older dump (default: the first database's only dump)");
  diff->add_option("--to", diff_options.to, "Label of the newer dump (default: the second database's only dump)");
  diff->add_option("-f,--format", diff_options.format, "Output format: table markdown json html csv")
      ->check(CLI::IsMember({"table", "markdown", "json", "html", "csv"}))->capture_default_str();
  diff->add_option("-o,--out", diff_options.output, "Write to this file instead of standard output");

  // pose
  PoseOptions pose_options;
  auto* pose = app.add_subcommand(
      "pose", "Evaluate a LightWave motion/envelope at one time, or every node of an NSBCA animation at one frame");
  pose->add_option("file", pose_options.file, "LWMO or LWEN file (version 1 or 3), or an NSBCA file")
      ->required()->check(CLI::ExistingFile);
  pose->add_option("--anim", pose_options.animation, "NSBCA: animation name (default: the first)");
  auto* pose_time = pose->add_option("-t,--time", pose_options.seconds, "Time in seconds")->check(kFiniteNumber);
  auto* pose_frame = pose->add_option("--frame", pose_options.frame,
                                      "Time as a frame number at --fps (NSBCA: an integer frame, 0-based)")
                         ->check(kFiniteNumber);
  pose_time->excludes(pose_frame);
  pose->add_option("--fps", pose_options.fps, "Frames per second (v1 keys are frames; v3 stores none)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  FormatOption pose_format;
  add_format_option(*pose, pose_format);

  // export
  ExportOptions export_options;
  auto* export_command = app.add_subcommand("export", "Sample a LightWave file's curves and write them as CSV");
  export_command->add_option("file", export_options.file, "LWMO or LWEN file")->required()->check(CLI::ExistingFile);
  export_command->add_option("--bake", export_options.bake_fps, "Samples per second")
      ->required()->check(CLI::PositiveNumber);
  export_command->add_option("--fps", export_options.fps, "The file's frame rate (v1 keys are frames)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  export_command->add_option("-o,--out", export_options.output, "CSV file to write (default: standard output)");

  // convert
  ConvertOptions convert_options;
  auto* convert = app.add_subcommand(
      "convert", "Convert a Kuper ASCII export to an LWMO motion, or a LightWave file between versions 1 and 3");
  convert->add_option("input", convert_options.input, "Kuper ASCII or LWMO/LWEN file")->required()->check(CLI::ExistingFile);
  convert->add_option("output", convert_options.output, "LWMO/LWEN file to write")->required();
  convert->add_option("--version", convert_options.version, "LightWave version to write: 1 or 3")
      ->check(CLI::IsMember({1, 3}));
  convert->add_option("--fps", convert_options.fps, "Frames per second between frames (v1) and seconds (v3)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  convert->add_option("--axis", convert_options.axes,
                      "Kuper axis mapping NAME=CHANNEL[:SCALE], e.g. VNS=2:-1 (default: header order, VNS, VTilt "
                      "and VRoll reversed)");

  // demo
  DemoOptions demo_options;
  demo_options.directory = std::filesystem::temp_directory_path() / "animdex-demo";
  auto* demo = app.add_subcommand("demo", "Write the sample dump, index it and print answers to example queries");
  demo->add_option("-d,--dir", demo_options.directory, "Working folder for the sample dump and database")
      ->capture_default_str();
  demo->add_option("-c,--characters", demo_options.character_count, "How many characters (1-41)")
      ->check(CLI::Range(1, 41))->capture_default_str();
  demo->add_option("-j,--threads", demo_options.threads, "Parser threads (0: one per core)")
      ->check(CLI::NonNegativeNumber);
  demo->add_flag("--force", demo_options.force, "Use a --dir that holds files the demo did not write");
  FormatOption demo_format;
  add_format_option(*demo, demo_format);

  try {
    const auto arguments = split_parameter_assignments(argc, argv);
    std::vector<const char*> pointers;
    for (const auto& argument : arguments) pointers.push_back(argument.c_str());
    app.parse(static_cast<int>(pointers.size()), pointers.data());
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help, out, std::cerr);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help, out, std::cerr);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version, out, std::cerr);
  } catch (const CLI::ParseError& error) {
    app.exit(error, out, std::cerr);
    return kExitUsage;
  }
  if (verbose) spdlog::set_level(spdlog::level::info);

  if (*index) {
    if (auto problem = check_index_database(database_for_index)) {
      fmt::print(stderr, "animdex: error: {}\n", *problem);
      return kExitUsage;
    }
    index_options.database = database_for_index;
    index_options.lock_wait = std::chrono::milliseconds(static_cast<std::int64_t>(lock_wait_seconds * 1000.0));
    index_options.incremental = !full;
    index_options.store_keyframes = keyframe_storage == "rows";
    index_options.parse_time_limit =
        std::chrono::milliseconds(static_cast<std::int64_t>(parse_timeout_seconds * 1000.0));
    for (const auto& root : roots) index_options.roots.emplace_back(root);
    index_options.show_progress = !quiet && ::isatty(STDERR_FILENO);
    return run_index_command(index_options, quiet);
  }
  if (*query) return run_named_query(query_name, query_options, out);
  if (*reuse) return run_report_reuse(reuse_options, out);
  if (*docs) return run_report_docs(docs_options, out);
  if (*diff) return run_diff(diff_options, out);
  if (*queries) {
    write_table(out, queries_table(), queries_format.value());
    return kExitOk;
  }
  if (*sql)
    return print_sql(sql_options.database, sql_text, infer_parameters(sql_options.parameters), sql_options.format.value(), out,
                     sql_options.limits);
  if (*info) {
    info_options.format = info_format.value();
    return run_info(info_options, out);
  }
  if (*formats) {
    write_table(out, formats_table(), formats_format.value());
    return kExitOk;
  }
  if (*sample) {
    sample_options.include_problem_files = !no_problem_files;
    if (!sample_force && !is_sample_folder(sample_directory, sample_options)) {
      fmt::print(stderr, "animdex: error: {} holds files the sample did not write; give a new folder, or --force "
                         "to write into it (files of the same name are replaced)\n",
                 sample_directory);
      return kExitUsage;
    }
    try {
      const auto summary = write_sample_dump(sample_directory, sample_options);
      fmt::print(stderr, "wrote {} files for {} characters under {}\n", summary.files.size(),
                 summary.characters.size(), sample_directory);
      return kExitOk;
    } catch (const std::exception& error) {
      return report_error(error, kExitFatal);
    }
  }
  if (*pose) {
    if (!pose_options.seconds && !pose_options.frame) {
      fmt::print(stderr, "animdex: pose needs --time SECONDS or --frame F\n");
      return kExitUsage;
    }
    pose_options.format = pose_format.value();
    return run_pose(pose_options, out);
  }
  if (*export_command) return run_export(export_options, out);
  if (*convert) return run_convert(convert_options, out);
  if (*demo) {
    demo_options.format = demo_format.value();
    return run_demo(demo_options, out);
  }
  return kExitUsage;
}

}  // namespace animdex
