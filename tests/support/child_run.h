#pragma once
// Runs the animdex binary in a process of its own: what depends on the whole process (SQLite's
// process-wide settings, which `index` makes before it opens a database; its own peak memory)
// cannot be seen from a run_cli inside the test process.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace animdex::test {

// `animdex ARGS...` (the build's binary), its standard error into `messages`, its standard output
// dropped. Returns its exit code, or -1 when it did not exit (a signal).
inline int run_animdex_in_child(const std::vector<std::string>& args, const std::filesystem::path& messages) {
  std::vector<const char*> argv{"animdex"};
  for (const auto& arg : args) argv.push_back(arg.c_str());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int file = ::open(messages.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_WRONLY);
    if (file < 0 || null < 0 || ::dup2(file, STDERR_FILENO) < 0 || ::dup2(null, STDOUT_FILENO) < 0) ::_exit(126);
    ::execv(ANIMDEX_BINARY, const_cast<char* const*>(argv.data()));
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

}  // namespace animdex::test
