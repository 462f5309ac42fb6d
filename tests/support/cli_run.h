#pragma once
// Runs the command line in process, as `animdex ARGS...`: its exit code and standard output.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
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

// The same with standard error captured too (messages go there), through a temporary file.
struct Captured {
  int code;
  std::string out;
  std::string err;
};

inline Captured run_capturing(std::vector<std::string> args) {
  char path[] = "/tmp/animdex-test-stderr-XXXXXX";
  const int file = ::mkstemp(path);
  if (file < 0) throw std::runtime_error("run_capturing: cannot create a temporary file");
  std::fflush(stderr);
  const int saved = ::dup(STDERR_FILENO);
  ::dup2(file, STDERR_FILENO);
  ::close(file);
  auto result = run(std::move(args));
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream err;
  err << in.rdbuf();
  ::unlink(path);
  return {result.code, result.out, err.str()};
}

}  // namespace animdex::test
