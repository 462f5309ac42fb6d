#pragma once
// Runs the command line in process, as `animdex ARGS...`: its exit code and standard output.
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"

namespace animdex::test {

struct Run {
  int code;
  std::string out;
};

inline Run run(std::vector<std::string> args) {
  args.insert(args.begin(), "animdex");
  std::vector<const char*> argv;
  for (const auto& arg : args) argv.push_back(arg.c_str());
  std::ostringstream out;
  const int code = run_cli(static_cast<int>(argv.size()), argv.data(), out);
  return {code, out.str()};
}

}  // namespace animdex::test
