#include "cli/errors.h"

#include <SQLiteCpp/Exception.h>
#include <fmt/format.h>
#include <sqlite3.h>

#include "db/database.h"
#include "output/output_file.h"

#include "output/result_table.h"

namespace animdex {

namespace {
thread_local CapturedFailure* captured = nullptr;
}  // namespace

CapturedFailure::CapturedFailure() : outer_(captured) { captured = this; }
CapturedFailure::~CapturedFailure() { captured = outer_; }

int fail(ExitCode code, std::string_view message) {
  if (captured) captured->message_ = message;
  else fmt::print(stderr, "animdex: error: {}\n", terminal_safe(message));
  return code;
}

int fail(ExitCode code, const std::exception& error) {
  // Whatever the verb's code for a failed write, a folder named as the file to write is a usage error.
  if (dynamic_cast<const OutputIsFolder*>(&error)) code = kExitUsage;
  // A reader stopped by its time budget, or a value past the length limit: SQLite says only
  // "interrupted" or "string or blob too big".
  if (const auto* sqlite = dynamic_cast<const SQLite::Exception*>(&error)) {
    if ((sqlite->getErrorCode() & 0xFF) == SQLITE_INTERRUPT) return fail(code, read_time_budget_text());
    if ((sqlite->getErrorCode() & 0xFF) == SQLITE_TOOBIG) return fail(code, value_too_big_text());
  }
  return fail(code, error.what());
}

void report_written(const std::filesystem::path& path, std::string_view details) {
  const std::string line = details.empty() ? fmt::format("wrote {}", path.string())
                                           : fmt::format("wrote {} ({})", path.string(), details);
  fmt::print(stderr, "{}\n", terminal_safe(line));
}

}  // namespace animdex
