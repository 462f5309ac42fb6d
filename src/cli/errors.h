#pragma once
// The one way a verb reports that it could not do its job: "animdex: error: MESSAGE" on stderr
// (made terminal-safe: messages quote paths and names), returning the exit code to use; and the
// one way it reports what it wrote.
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

#include "cli/exit_codes.h"

namespace animdex {

int fail(ExitCode code, std::string_view message);
int fail(ExitCode code, const std::exception& error);

// "wrote PATH (DETAILS)" on stderr for every file or folder a verb writes, so standard output holds
// only the verb's answer (a page, a table) and a script can tell the two apart.
void report_written(const std::filesystem::path& path, std::string_view details = {});

// While one lives, fail() on this thread keeps its message here instead of printing it: a report
// that runs a verb's steps for many files (the players of `report docs`) says on its page why one
// could not be made, and goes on.
class CapturedFailure {
 public:
  CapturedFailure();
  ~CapturedFailure();
  CapturedFailure(const CapturedFailure&) = delete;
  CapturedFailure& operator=(const CapturedFailure&) = delete;
  const std::string& message() const { return message_; }  // the last failure's, empty when none

 private:
  friend int fail(ExitCode, std::string_view);
  std::string message_;
  CapturedFailure* outer_;
};

}  // namespace animdex
