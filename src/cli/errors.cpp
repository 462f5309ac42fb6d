#include "cli/errors.h"

#include <fmt/format.h>

#include "output/result_table.h"

namespace animdex {

int fail(ExitCode code, std::string_view message) {
  fmt::print(stderr, "animdex: error: {}\n", terminal_safe(message));
  return code;
}

int fail(ExitCode code, const std::exception& error) { return fail(code, error.what()); }

}  // namespace animdex
