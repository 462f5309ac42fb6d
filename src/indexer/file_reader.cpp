#include "indexer/file_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace animdex {

namespace {

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string file_type_name(unsigned mode) {
  if (S_ISFIFO(mode)) return "FIFO";
  if (S_ISSOCK(mode)) return "socket";
  if (S_ISCHR(mode)) return "character device";
  if (S_ISBLK(mode)) return "block device";
  if (S_ISDIR(mode)) return "folder";
  if (S_ISLNK(mode)) return "symbolic link";
  return "special file";
}

FileBytes read_file_bytes(const std::filesystem::path& path, std::uint64_t max_bytes) {
  FileBytes result;
  const auto refuse = [&](unsigned mode) {
    result.not_regular = true;
    result.error = fmt::format("not a regular file ({}); not read", file_type_name(mode));
    return result;
  };
  // A special file is never opened: opening a FIFO wakes its writer, opening a device may act.
  struct stat named {};
  if (::stat(path.c_str(), &named) == 0 && !S_ISREG(named.st_mode)) return refuse(named.st_mode);
  // O_NONBLOCK and the fstat below catch a file swapped for a FIFO after that check.
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) {
    if (errno == ENXIO) return refuse(S_IFSOCK);  // a socket swapped in: it cannot be opened at all
    result.error = fmt::format("cannot open: {}", std::strerror(errno));
    return result;
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    result.error = fmt::format("cannot examine: {}", std::strerror(errno));
    return result;
  }
  if (!S_ISREG(info.st_mode)) return refuse(info.st_mode);
  result.file_size = static_cast<std::uint64_t>(info.st_size);
  const std::uint64_t wanted = std::min(result.file_size, max_bytes);
  result.bytes.resize(static_cast<std::size_t>(wanted));
  std::size_t done = 0;
  while (done < result.bytes.size()) {
    const ssize_t got = ::read(fd.get(), result.bytes.data() + done, result.bytes.size() - done);
    if (got < 0) {
      if (errno == EINTR) continue;
      result.error = fmt::format("read failed at byte {}: {}", done, std::strerror(errno));
      break;
    }
    if (got == 0) break;  // the file shrank while we read it: keep what is there
    done += static_cast<std::size_t>(got);
  }
  result.bytes.resize(done);
  if (done < wanted && result.error.empty()) result.file_size = done;
  return result;
}

}  // namespace animdex
