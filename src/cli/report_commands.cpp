// `animdex report reuse`, `animdex report docs` and `animdex diff`: thin wrappers over reports/.
#include <fmt/format.h>
#include <functional>
#include <ostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "db/database.h"
#include "output/output_file.h"
#include "reports/diff_report.h"
#include "reports/docs_report.h"
#include "reports/reuse_report.h"

namespace animdex {

namespace {

int fail(int code, const std::string& message) {
  fmt::print(stderr, "animdex: error: {}\n", message);
  return code;
}

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
    return fail(kExitFatal, error.what());
  }
  fmt::print(stderr, "wrote {}\n", path);
  return kExitOk;
}

}  // namespace

int run_report_reuse(const ReuseCommandOptions& options, std::ostream& out) {
  const auto format = reports::parse_report_format(options.format);
  if (!format) return fail(kExitUsage, fmt::format("unknown format '{}'", options.format));
  try {
    auto db = open_read_only(options.database);
    reports::ReuseOptions reuse;
    reuse.dump = options.dump;
    reuse.tolerance = options.tolerance;
    reuse.min_track_keys = options.min_track_keys;
    const auto report = reports::build_reuse_report(db, reuse);
    const auto sections = reports::reuse_sections(report, reuse, *format == reports::ReportFormat::html);
    return emit(options.output, out, [&](std::ostream& stream) {
      reports::write_sections(stream, "Animation reuse", sections, *format);
    });
  } catch (const std::exception& error) {
    return fail(kExitFatal, error.what());
  }
}

int run_report_docs(const DocsCommandOptions& options, std::ostream& out) {
  try {
    auto db = open_read_only(options.database);
    reports::DocsOptions docs;
    docs.out = options.output;
    docs.dump = options.dump;
    const auto summary = reports::write_docs(db, docs);
    out << fmt::format("wrote {} files under {} (HTML: {})\n", summary.files.size(), options.output,
                       (std::filesystem::path(options.output) / summary.html).string());
    return kExitOk;
  } catch (const std::exception& error) {
    return fail(kExitFatal, error.what());
  }
}

int run_diff(const DiffCommandOptions& options, std::ostream& out) {
  const auto format = reports::parse_report_format(options.format);
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
    const std::string from = options.from ? *options.from : reports::sole_dump(from_db, "the first database");
    const std::string to = options.to ? *options.to : reports::sole_dump(to_db, "the second database");
    const auto report = reports::build_diff(from_db, from, to_db, to);
    const auto sections = reports::diff_sections(report, *format == reports::ReportFormat::html);
    return emit(options.output, out, [&](std::ostream& stream) {
      reports::write_sections(stream, fmt::format("Changes from {} to {}", from, to), sections, *format);
    });
  } catch (const std::exception& error) {
    return fail(kExitFatal, error.what());
  }
}

}  // namespace animdex
