#pragma once
// Output that is known to have arrived, written so that no planted name is ever followed: a full
// disk or a closed pipe is an error, not "wrote", and a symlink an attacker left beside the target
// (`OUT.partial -> victim`) is never written through.
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <iosfwd>
#include <string_view>

namespace animdex {

// A file being written. A regular file (or a new one) is written to a fresh temporary in the
// target's folder, created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW under a unique name), and
// renamed over the target by commit(): a failed or abandoned write leaves the previous file whole,
// and a symlink to a file at the target is replaced, not followed; a file replaced keeps its
// permissions. A target that is (or links to) a device or FIFO (/dev/stdout) is written in place. Errors throw std::runtime_error naming
// the target and the system's reason (e.g. "No space left on device"). SIGINT, SIGTERM and SIGHUP
// (where the process has no handler of its own) remove the temporaries being written.
// The target is a folder: the user named the wrong thing (a usage error), not a failed write.
class OutputIsFolder : public std::runtime_error {
 public:
  explicit OutputIsFolder(const std::filesystem::path& target);
};

class OutputFile {
 public:
  explicit OutputFile(std::filesystem::path target);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // not committed: the temporary is removed, the target untouched

  void write(std::string_view bytes);
  // Flushes, closes and renames the temporary over the target. The file is complete only after it.
  void commit();
  const std::filesystem::path& target() const { return target_; }

 private:
  [[noreturn]] void fail(int reason);

  std::filesystem::path target_;
  std::filesystem::path temporary_;  // empty when written in place
  std::FILE* file_ = nullptr;
  int tracked_ = -1;  // its slot among the temporaries an interrupt removes
};

// Whether `output` and `input` name one existing file (through a link, a hard link, `./`): a verb
// must not replace the file it reads.
bool same_file(const std::filesystem::path& output, const std::filesystem::path& input);

// Writes `bytes` to `path` through an OutputFile and commits it.
void write_file_checked(const std::filesystem::path& path, std::string_view bytes);

// Flushes `out`; false when it, or anything written to it before, failed.
bool flush_succeeded(std::ostream& out);

}  // namespace animdex
