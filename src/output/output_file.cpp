#include "output/output_file.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
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

// Temporaries being written, so that an interrupt (Ctrl-C, kill) removes them before the process
// dies: the handler may only read what is already in place, so the names sit in fixed buffers.
constexpr int kTrackedTemporaries = 8;
char tracked_names[kTrackedTemporaries][PATH_MAX];
std::atomic<bool> tracked_claimed[kTrackedTemporaries];  // a writer owns the slot
std::atomic<bool> tracked_ready[kTrackedTemporaries];    // its name is complete: the handler may use it

void remove_temporaries_and_die(int signal_number) {
  for (int slot = 0; slot < kTrackedTemporaries; ++slot)
    if (tracked_ready[slot].load(std::memory_order_acquire)) ::unlink(tracked_names[slot]);
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

// For the signals nobody else handles (a program embedding this keeps its own handlers).
void remove_temporaries_on_interrupt() {
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction previous {};
    if (::sigaction(signal_number, nullptr, &previous) != 0 || previous.sa_handler != SIG_DFL) continue;
    struct sigaction action {};
    action.sa_handler = &remove_temporaries_and_die;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal_number, &action, nullptr);
  }
}

// A slot holding `name`, or -1 when all are taken (the temporary is then only removed normally).
int track_temporary(const std::string& name) {
  if (name.size() >= PATH_MAX) return -1;
  remove_temporaries_on_interrupt();
  for (int slot = 0; slot < kTrackedTemporaries; ++slot) {
    bool expected = false;
    if (!tracked_claimed[slot].compare_exchange_strong(expected, true, std::memory_order_acq_rel)) continue;
    std::memcpy(tracked_names[slot], name.c_str(), name.size() + 1);
    tracked_ready[slot].store(true, std::memory_order_release);
    return slot;
  }
  return -1;
}

void untrack_temporary(int slot) {
  if (slot < 0) return;
  tracked_ready[slot].store(false, std::memory_order_release);
  tracked_claimed[slot].store(false, std::memory_order_release);
}

// A fresh file beside `target`, created exclusively under a unique name: nothing that already
// exists there (a file, a symlink someone planted) is opened. It takes `mode` (the file it
// replaces keeps its permissions: a private file stays private).
std::FILE* create_temporary(const std::filesystem::path& target, std::filesystem::path& temporary, mode_t mode) {
  const auto folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string name = (folder / ("." + target.filename().string() + ".animdex-XXXXXX")).string();
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);  // O_CREAT | O_EXCL: never follows a link
  if (fd < 0) return nullptr;
  temporary = name;
  ::fchmod(fd, mode);
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

OutputIsFolder::OutputIsFolder(const std::filesystem::path& target)
    : std::runtime_error(fmt::format("cannot write {}: it is a folder; give a file name", target.string())) {}

OutputFile::OutputFile(std::filesystem::path target) : target_(std::move(target)) {
  struct stat status {};
  // stat follows a link: one to a file is replaced (renamed over, the file it named untouched); one
  // to a device or FIFO (/dev/stdout) is written through, as a shell redirection would.
  const bool exists = ::stat(target_.c_str(), &status) == 0;
  if (exists && S_ISDIR(status.st_mode))
    throw OutputIsFolder(target_);
  if (exists && !S_ISREG(status.st_mode)) {
    // A device or FIFO the user named: written in place, as a shell redirection would.
    file_ = std::fopen(target_.c_str(), "wb");
  } else {
    const mode_t mode = exists ? (status.st_mode & 07777) : (0666 & ~process_umask());
    file_ = create_temporary(target_, temporary_, mode);
    if (file_) tracked_ = track_temporary(temporary_.string());
  }
  if (!file_) fail(errno);
}

OutputFile::~OutputFile() {
  if (file_) {
    std::fclose(file_);
    if (!temporary_.empty()) ::unlink(temporary_.c_str());
  }
  untrack_temporary(tracked_);
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

bool same_file(const std::filesystem::path& output, const std::filesystem::path& input) {
  std::error_code error;
  return std::filesystem::exists(output, error) && std::filesystem::equivalent(output, input, error) && !error;
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
