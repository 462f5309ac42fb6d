#pragma once
// Output that is known to have arrived, written so that no planted name is ever followed: a full
// disk or a closed pipe is an error, not "wrote", and a symlink an attacker left beside the target
// (`OUT.partial -> victim`) is never written through.
#include <cstdio>
#include <filesystem>
#include <iosfwd>
#include <string_view>

namespace animdex {

// A file being written. A regular file (or a new one) is written to a fresh temporary in the
// target's folder, created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW under a unique name), and
// renamed over the target by commit(): a failed or abandoned write leaves the previous file whole,
// and a symlink at the target is replaced, not followed. A target that exists and is not a regular
// file (a device, a FIFO, /dev/stdout) is written in place. Errors throw std::runtime_error naming
// the target and the system's reason (e.g. "No space left on device").
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
};

// Writes `bytes` to `path` through an OutputFile and commits it.
void write_file_checked(const std::filesystem::path& path, std::string_view bytes);

// Flushes `out`; false when it, or anything written to it before, failed.
bool flush_succeeded(std::ostream& out);

}  // namespace animdex
