#include "output/output_file.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <ostream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace animdex {

namespace {

// mkostemp creates its file 0600; an output should have the mode any new file of the user's has.
mode_t process_umask() {
  static const mode_t mask = [] {
    const mode_t current = ::umask(0);
    ::umask(current);
    return current;
  }();
  return mask;
}

// A fresh file beside `target`, created exclusively under a unique name: nothing that already
// exists there (a file, a symlink someone planted) is opened.
std::FILE* create_temporary(const std::filesystem::path& target, std::filesystem::path& temporary) {
  const auto folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string name = (folder / ("." + target.filename().string() + ".animdex-XXXXXX")).string();
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);  // O_CREAT | O_EXCL: never follows a link
  if (fd < 0) return nullptr;
  temporary = name;
  ::fchmod(fd, 0666 & ~process_umask());
  std::FILE* file = ::fdopen(fd, "wb");
  if (!file) {
    const int reason = errno;
    ::close(fd);
    ::unlink(name.c_str());
    temporary.clear();
    errno = reason;
  }
  return file;
}

}  // namespace

OutputFile::OutputFile(std::filesystem::path target) : target_(std::move(target)) {
  struct stat status {};
  const bool exists = ::stat(target_.c_str(), &status) == 0;
  if (exists && S_ISDIR(status.st_mode))
    throw std::runtime_error(fmt::format("cannot write {}: it is a folder", target_.string()));
  if (exists && !S_ISREG(status.st_mode)) {
    // A device or FIFO the user named: written in place, as a shell redirection would.
    file_ = std::fopen(target_.c_str(), "wb");
  } else {
    file_ = create_temporary(target_, temporary_);
  }
  if (!file_) fail(errno);
}

OutputFile::~OutputFile() {
  if (!file_) return;
  std::fclose(file_);
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

void OutputFile::fail(int reason) {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  throw std::runtime_error(fmt::format("cannot write {}: {}", target_.string(), std::strerror(reason)));
}

void OutputFile::write(std::string_view bytes) {
  if (!file_) throw std::logic_error("OutputFile::write after commit");
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) fail(errno);
}

void OutputFile::commit() {
  if (!file_) throw std::logic_error("OutputFile::commit twice");
  // stdio rather than a stream: fclose reports the error of the final flush, with errno.
  if (std::fflush(file_) != 0) fail(errno);
  std::FILE* file = file_;
  file_ = nullptr;
  if (std::fclose(file) != 0) {
    const int reason = errno;
    if (!temporary_.empty()) ::unlink(temporary_.c_str());
    throw std::runtime_error(fmt::format("cannot write {}: {}", target_.string(), std::strerror(reason)));
  }
  if (temporary_.empty()) return;
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
    const int reason = errno;
    ::unlink(temporary_.c_str());
    throw std::runtime_error(fmt::format("cannot write {}: {}", target_.string(), std::strerror(reason)));
  }
}

void write_file_checked(const std::filesystem::path& path, std::string_view bytes) {
  OutputFile file(path);
  file.write(bytes);
  file.commit();
}

bool flush_succeeded(std::ostream& out) {
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace animdex
