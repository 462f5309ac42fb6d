// `animdex report reuse`, `animdex report docs` and `animdex diff`: thin wrappers over reports/.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <functional>
#include <memory>
#include <ostream>
#include <sstream>

#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "cli/diff_players.h"
#include "cli/errors.h"
#include "cli/input_loading.h"
#include "cli/verb.h"
#include "cli/view_verb.h"
#include "db/database.h"
#include "db/parameter_checks.h"
#include "output/output_file.h"
#include "output/output_folder.h"
#include "reports/diff_curves.h"
#include "reports/diff_report.h"
#include "reports/docs_report.h"
#include "reports/reuse_report.h"

namespace animdex {

namespace {

// Writes to --out when given, else to `out`.
int emit(const std::string& path, std::ostream& out, const std::function<void(std::ostream&)>& write) {
  if (path.empty()) {
    write(out);
    return kExitOk;
  }
  std::ostringstream text;
  write(text);
  try {
    write_file_checked(path, text.view());
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
  report_written(path);
  return kExitOk;
}

}  // namespace

namespace {

// A --dump/--from/--to label by the parameters' case rule (warned, as `query` does, where another
// case was taken).
std::optional<std::string> checked_label(SQLite::Database& db, const std::optional<std::string>& label,
                                         const std::string& option) {
  if (!label) return std::nullopt;
  std::vector<std::string> notes;
  auto checked = checked_dump_label(db, *label, option, notes);
  for (const auto& note : notes) spdlog::warn("{}", note);
  return checked;
}

}  // namespace

int run_report_reuse(const ReuseCommandOptions& options, std::ostream& out) {
  const auto format = parse_output_format(options.format);
  if (!format) return fail(kExitUsage, fmt::format("unknown format '{}'", options.format));
  try {
    auto db = open_read_only(options.database);
    reports::ReuseOptions reuse;
    reuse.dump = checked_label(db, options.dump, "--dump");
    reuse.tolerance = options.tolerance;
    reuse.min_track_keys = options.min_track_keys;
    const auto report = reports::build_reuse_report(db, reuse);
    const auto sections = reports::reuse_sections(report, reuse, *format == OutputFormat::html);
    return emit(options.output, out, [&](std::ostream& stream) {
      reports::write_sections(stream, "Animation reuse", sections, *format);
    });
  } catch (const QueryUsageError& error) {
    return fail(kExitUsage, error.what());
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
}

namespace {

// The players of the files linked to a model, where Debian's three.js is installed (else the pages
// go without, and say so on stderr).
void add_players(reports::DocsOptions& docs) {
  const CapturedFailure quiet;
  auto scripts = player_scripts();
  if (std::get_if<int>(&scripts)) {
    spdlog::warn("no 3D players: {}", quiet.message());
    return;
  }
  docs.player_scripts = std::move(std::get<0>(scripts));
  docs.player = [](const std::filesystem::path& file, const std::filesystem::path& model, std::size_t skip) {
    return player_quietly(file, model, 0, skip);
  };
}

}  // namespace

int run_report_docs(const DocsCommandOptions& options, std::ostream& /*out: writes only its folder*/) {
  try {
    auto db = open_read_only(options.database);
    reports::DocsOptions docs;
    docs.out = options.output;
    docs.dump = checked_label(db, options.dump, "--dump");
    docs.show_roots = options.show_roots;
    docs.force = options.force;
    docs.load_curves = load_curves_quietly;
    add_players(docs);
    const auto summary = reports::write_docs(db, docs);
    report_written(options.output, fmt::format("{} files; HTML: {}; curves: {}", summary.files.size(),
                                               (std::filesystem::path(options.output) / summary.html).string(),
                                               (std::filesystem::path(options.output) / summary.curves).string()));
    return kExitOk;
  } catch (const QueryUsageError& error) {
    return fail(kExitUsage, error.what());
  } catch (const ForeignFileError& error) {
    return fail(kExitUsage, error.what());
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
}

// The before/after players of the changed animations, beside the page (none on standard output).
void add_players(std::vector<reports::Section>& sections, const DiffSides& sides, const reports::DiffReport& report,
                 const std::string& output) {
  if (output.empty()) {
    reports::add_change_players(sections, {}, "With --out PAGE.html, diff also writes 3D players of the changed "
                                              "animations, before and after, into PAGE.players beside it.");
    return;
  }
  const auto players = write_diff_players(sides, report, output);
  std::string note;
  for (const auto& line : players.notes) note += (note.empty() ? "" : " ") + line + ".";
  reports::add_change_players(sections, players.links, note);
  if (players.pages > 0)
    report_written(players.folder, fmt::format("{} 3D player{}", players.pages, players.pages == 1 ? "" : "s"));
  for (const auto& line : players.notes) fmt::print(stderr, "animdex: note: {}\n", line);
}

int run_diff(const DiffCommandOptions& options, std::ostream& out) {
  const auto format = parse_output_format(options.format);
  if (!format) return fail(kExitUsage, fmt::format("unknown format '{}'", options.format));
  std::vector<std::string> databases = options.databases;
  if (!options.database.empty()) databases.insert(databases.begin(), options.database);
  if (databases.empty() || databases.size() > 2)
    return fail(kExitUsage, "diff needs --db FILE --from LABEL --to LABEL, or two database files A.db B.db");
  if (databases.size() == 1 && (!options.from || !options.to))
    return fail(kExitUsage, "with one database, diff needs --from LABEL and --to LABEL");
  try {
    auto from_db = open_read_only(databases.front());
    auto to_db = open_read_only(databases.back());
    const std::string from = options.from ? *checked_label(from_db, options.from, "--from")
                                          : reports::sole_dump(from_db, "the first database");
    const std::string to = options.to ? *checked_label(to_db, options.to, "--to")
                                      : reports::sole_dump(to_db, "the second database");
    const auto report = reports::build_diff(from_db, from, to_db, to);
    auto sections = reports::diff_sections(report, *format == OutputFormat::html);
    if (*format == OutputFormat::html) {
      reports::add_changed_track_charts(sections, from_db, to_db, report);
      add_players(sections, {from_db, from, to_db, to}, report, options.output);
    }
    return emit(options.output, out, [&](std::ostream& stream) {
      reports::write_sections(stream, fmt::format("Changes from {} to {}", from, to), sections, *format);
    });
  } catch (const QueryUsageError& error) {
    return fail(kExitUsage, error.what());
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
}

std::vector<Verb> add_report_verbs(CLI::App& app) {
  auto* report = app.add_subcommand("report", "Reports: reuse across characters, documentation tables");
  report->require_subcommand(1);
  add_examples(*report, {"animdex report reuse --db gnt4.db --dump ntsc", "animdex report docs --db gnt4.db --out docs"});
  auto reuse_options = std::make_shared<ReuseCommandOptions>();
  auto* reuse = report->add_subcommand(
      "reuse", "Identical animations across characters or files, reused bone tracks, near-identical animations");
  reuse->add_option("--db", reuse_options->database, "animdex database (default: $ANIMDEX_DB)")
      ->envname("ANIMDEX_DB")->required();
  reuse->add_option("--dump", reuse_options->dump, "Only this dump label (default: every dump)");
  reuse->add_option("-f,--format", reuse_options->format,
                     "Output format: markdown html csv json table. Members are named by their path relative to the "
                     "dump's root and their animation ID (KH2: with the motion-set states, 'IDLE (battle, weapon)'); "
                     "in JSON, owners, IDs and members are arrays")
      ->check(CLI::IsMember({"markdown", "html", "csv", "json", "table"}))->capture_default_str();
  reuse->add_option("--tolerance", reuse_options->tolerance, "Near-identical: largest absolute value difference allowed")
      ->check(non_negative_number())->capture_default_str();
  reuse->add_option("--min-track-keys", reuse_options->min_track_keys,
                    "Track reuse: leave out tracks with fewer keys (constant poses)")
      ->check(non_negative_number())->capture_default_str();
  reuse->add_option("-o,--out", reuse_options->output, "Write to this file instead of standard output");
  add_examples(*reuse, {"animdex report reuse --db gnt4.db --dump ntsc",
                        "animdex report reuse --db gnt4.db --format html --out reuse.html --tolerance 0.01"});

  auto docs_options = std::make_shared<DocsCommandOptions>();
  auto* docs = report->add_subcommand(
      "docs", "Wiki-style tables as markdown files plus one self-contained HTML page with charts");
  docs->add_option("--db", docs_options->database, "animdex database (default: $ANIMDEX_DB)")
      ->envname("ANIMDEX_DB")->required();
  docs->add_option("--out", docs_options->output,
                   "Folder to write into: new, empty, or written by report docs before (its .animdex-manifest "
                   "lists the pages; pages of the last run that this one does not write are removed)")
      ->required();
  docs->add_option("--dump", docs_options->dump, "Only this dump label (default: every dump)");
  docs->add_flag("--show-roots", docs_options->show_roots,
                 "Also write the folder each dump was indexed from (an absolute path on this machine); by default "
                 "the pages name a dump by its label and every file by its path relative to the dump's root");
  docs->add_flag("--force", docs_options->force,
                 "Write into a folder that holds files report docs did not write (files of the same name are "
                 "replaced; the others are left alone)");
  add_examples(*docs, {"animdex report docs --db gnt4.db --out docs", "animdex report docs --db kh2.db --out wiki --dump fm",
                       "animdex report docs --db gnt4.db --out docs --show-roots"});

  auto diff_options = std::make_shared<DiffCommandOptions>();
  auto* diff = app.add_subcommand(
      "diff", "What changed between two dumps: --db F --from A --to B, or two databases A.db B.db");
  diff->add_option("databases", diff_options->databases, "One or two database files")->type_name("DB");
  diff->add_option("--db", diff_options->database, "Database holding both dumps (default: $ANIMDEX_DB)")
      ->envname("ANIMDEX_DB");
  diff->add_option("--from", diff_options->from, "Label of the older dump (default: the first database's only dump)");
  diff->add_option("--to", diff_options->to, "Label of the newer dump (default: the second database's only dump)");
  diff->add_option("-f,--format", diff_options->format,
                    "Output format: table markdown json html csv. Every format has three sections: files; animations, "
                    "one line each (how many of its tracks were added, removed or changed, and the largest value "
                    "change); then the per-track detail of the changed animations in a section of its own (bones "
                    "named where the game's reference knows them: 'bone 3 (hip) R'). JSON also gives each changed "
                    "animation its tracks as an array of objects")
      ->check(CLI::IsMember({"table", "markdown", "json", "html", "csv"}))->capture_default_str();
  diff->add_option("-o,--out", diff_options->output, "Write to this file instead of standard output");
  add_examples(*diff, {"animdex diff --db gnt4.db --from ntsc --to pal --format markdown",
                       "animdex diff vanilla.db finalmix.db --format html --out changes.html"});

  return {{reuse, [reuse_options](std::ostream& out) { return run_report_reuse(*reuse_options, out); }},
          {docs, [docs_options](std::ostream& out) { return run_report_docs(*docs_options, out); }},
          {diff, [diff_options](std::ostream& out) { return run_diff(*diff_options, out); }}};
}

}  // namespace animdex
