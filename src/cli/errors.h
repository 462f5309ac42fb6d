#pragma once
// The one way a verb reports that it could not do its job: "animdex: error: MESSAGE" on stderr
// (made terminal-safe: messages quote paths and names), returning the exit code to use.
#include <exception>
#include <string_view>

#include "cli/exit_codes.h"

namespace animdex {

int fail(ExitCode code, std::string_view message);
int fail(ExitCode code, const std::exception& error);

}  // namespace animdex
