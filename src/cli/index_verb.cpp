// `animdex index ROOT... --db FILE`: scan, parse and store one dump.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "cli/errors.h"
#include "cli/index_summary.h"
#include "cli/verb.h"
#include "db/database.h"
#include "db/query_catalog.h"
#include "indexer/drop_dump.h"
#include "indexer/pipeline.h"

namespace animdex {

namespace {

struct IndexVerbOptions {
  IndexOptions index;
  std::vector<std::string> roots;
  std::string database;
  double lock_wait_seconds = 60.0;
  double parse_timeout_seconds = 30.0;
  bool full = false;
  std::string keyframe_storage = "blob";
  bool quiet = false;
};

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

void print_summary(const IndexOptions& options, const IndexSummary& summary) {
  for (const auto& warning : summary.warnings)
    spdlog::warn("{}: {}", terminal_safe(warning.relative_path), terminal_safe(warning.message));
  fmt::print(stderr, "{}", index_summary_text(options, summary));
}

// The default label: the root's name (a folder's name, an image's name without its extension),
// several roots' names joined by '+'; what a user would type for that tree anyway.
std::string label_from_roots(const std::vector<std::string>& roots) {
  std::vector<std::string> names;
  for (const auto& root : roots) {
    const auto path = std::filesystem::absolute(root).lexically_normal();
    std::error_code error;
    const bool file = std::filesystem::is_regular_file(path, error);
    std::string name = (file ? path.stem() : path.filename()).string();
    if (name.empty()) name = path.parent_path().filename().string();  // "dump/" normalises to "dump/" + ""
    if (name.empty()) name = "root";                                   // the file system's root itself
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());  // as the roots are recorded: `index b a` is `index a b`
  std::string label;
  for (const auto& name : names) label += (label.empty() ? "" : "+") + name;
  return label;
}

// Whether a root holds no file at all (a folder with nothing but folders under it): indexing it
// would record an empty dump, which is never what was meant. Stops at the first file found.
bool holds_no_files(const std::string& root) {
  std::error_code error;
  if (!std::filesystem::is_directory(root, error)) return false;
  std::filesystem::recursive_directory_iterator it(root, std::filesystem::directory_options::skip_permission_denied,
                                                   error);
  for (; !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error))
    if (!it->is_directory(error)) return false;
  return !error;
}

int run_index_verb(IndexVerbOptions& options) {
  configure_sqlite_for_indexing();  // first, before anything here opens SQLite
  keep_freed_memory_for_reuse();
  if (auto problem = check_index_database(options.database)) return fail(kExitUsage, *problem);
  for (const auto& root : options.roots)
    if (holds_no_files(root)) return fail(kExitUsage, fmt::format("{} holds no files: nothing to index", root));
  IndexOptions& index = options.index;
  index.database = options.database;
  index.lock_wait = std::chrono::milliseconds(static_cast<std::int64_t>(options.lock_wait_seconds * 1000.0));
  index.incremental = !options.full;
  index.key_storage = parse_key_storage(options.keyframe_storage).value_or(KeyStorage::blob);
  index.parse_time_limit =
      std::chrono::milliseconds(static_cast<std::int64_t>(options.parse_timeout_seconds * 1000.0));
  for (const auto& root : options.roots) index.roots.emplace_back(root);
  index.show_progress = !options.quiet && ::isatty(STDERR_FILENO);
  if (index.label.empty()) {
    if (auto existing = label_of_roots(index.database, index.roots)) {
      index.label = *existing;
      if (!options.quiet)
        spdlog::warn("these roots are already indexed as dump '{}': updating it (--label NAME indexes them as another dump)",
                     terminal_safe(index.label));
    } else {
      index.label = label_from_roots(options.roots);
    }
  }
  try {
    const auto summary = run_index(index);
    if (!options.quiet) print_summary(index, summary);
    return summary.totals.errors > 0 || summary.totals.lost > 0 ? kExitFileErrors : kExitOk;
  } catch (const LabelInUse& error) {
    return fail(kExitUsage, error);
  } catch (const DumpsOverlap& error) {
    return fail(kExitUsage, error);
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
}

}  // namespace

std::vector<Verb> add_index_verb(CLI::App& app) {
  auto options = std::make_shared<IndexVerbOptions>();
  options->index.label.clear();  // empty: derived from the roots (label_from_roots)
  auto* index = app.add_subcommand("index", "Scan folders, parse every animation file, store one dump in a database");
  index->add_option("roots", options->roots, "Folders (or files) to scan, recursively")
      ->required()->check(CLI::ExistingPath);
  index->add_option("--db", options->database, "SQLite database to create or update (default: $ANIMDEX_DB)")
      ->envname("ANIMDEX_DB")->required();
  index->add_option("-l,--label", options->index.label,
                    "Name of this dump (default: the root's name, e.g. gnt4-ntsc; several roots joined by +). "
                    "Re-indexing a label updates it; a label indexed from other roots is refused unless --replace");
  index->add_flag("--replace", options->index.replace,
                  "Replace the dump of --label even when it was indexed from other roots");
  index->add_flag("--allow-overlap", options->index.allow_overlap,
                  "Index roots that hold another dump's files, or are held by its roots (by default refused: every "
                  "answer over all dumps would count those files twice; `animdex drop LABEL` removes a dump)");
  index->add_option("-j,--threads", options->index.threads, "Parser threads (0: one per core)")
      ->check(non_negative_number())->capture_default_str();
  index->add_option("--max-file-size", options->index.max_file_size,
                    "Files larger than this many bytes are detected but not parsed (default 16 MiB; real animation "
                    "files are under 3 MB)")->capture_default_str();
  index->add_option("--wait", options->lock_wait_seconds,
                    "Seconds to wait for another `index` writing the same database before giving up")
      ->check(non_negative_number())->capture_default_str();
  index->add_option("--parse-timeout", options->parse_timeout_seconds,
                    "Seconds one file's parse may take before it is recorded as an error")
      ->check(positive_number())->capture_default_str();
  index->add_flag("--full", options->full,
                  "Re-parse every file (default: keep the rows of files whose size and time, or content, are "
                  "unchanged since the label was last indexed)");
  index->add_option("--keyframes", options->keyframe_storage,
                    "How to store keys: one packed blob per track (blob), a row per key (rows, the layout "
                    "before v9: larger and slower), or only tracks and counts (none)")
      ->check(CLI::IsMember({"blob", "rows", "none"}))->capture_default_str();
  index->add_flag("-q,--quiet", options->quiet, "No progress line, warnings or summary");
  add_examples(*index, {"animdex index ~/dumps/gnt4-ntsc --db gnt4.db --label ntsc",
                        "animdex index ~/dumps/gnt4-pal --db gnt4.db --label pal   # a second dump, same database",
                        "animdex index kh2/obj ds/data --db mixed.db --label mixed   # several roots, any formats"});
  struct DropOptions {
    std::string label, database;
    double lock_wait_seconds = 60;
  };
  auto drop_options = std::make_shared<DropOptions>();
  auto* drop = app.add_subcommand("drop", "Remove one dump and all its rows from a database");
  drop->add_option("label", drop_options->label, "The dump's label, as `animdex query dumps` lists it")->required();
  drop->add_option("--db", drop_options->database, "The database (default: $ANIMDEX_DB)")
      ->envname("ANIMDEX_DB")->required();
  drop->add_option("--wait", drop_options->lock_wait_seconds,
                   "Seconds to wait for another `index` writing the same database before giving up")
      ->check(non_negative_number())->capture_default_str();
  add_examples(*drop, {"animdex drop kh2-obj --db game.db"});
  const auto run_drop = [drop_options](std::ostream& out) {
    try {
      const auto dropped = drop_dump(drop_options->database, drop_options->label,
                                     std::chrono::milliseconds(static_cast<std::int64_t>(drop_options->lock_wait_seconds * 1000)));
      out << fmt::format("removed dump '{}' (indexed from {}): {} files, {} animations\n",
                         terminal_safe(drop_options->label), terminal_safe(dropped.root), dropped.files,
                         dropped.animations);
      return static_cast<int>(kExitOk);
    } catch (const QueryUsageError& error) {
      return fail(kExitUsage, error);
    } catch (const std::exception& error) {
      return fail(kExitFatal, error);
    }
  };
  return {{index, [options](std::ostream&) { return run_index_verb(*options); }}, {drop, run_drop}};
}

}  // namespace animdex
