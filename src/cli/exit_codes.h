#pragma once
// Process exit codes (documented in README.md, "Exit codes").
namespace animdex {

enum ExitCode : int {
  kExitOk = 0,           // everything worked
  kExitFatal = 1,        // could not do the job: database, I/O or SQL error
  kExitUsage = 2,        // bad command line: unknown verb/option, missing parameter, unknown query
  kExitFileErrors = 3,   // the job finished, but some input files could not be parsed (recorded as errors)
  kExitRefused = 4,      // `sql`/`query` refused a statement that would write
};

}  // namespace animdex
