#include "indexer/file_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace animdex {

FileBytes read_file_bytes(const std::filesystem::path& path, std::uint64_t max_bytes) {
  FileBytes result;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    result.error = fmt::format("cannot open: {}", std::strerror(errno));
    return result;
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    result.error = fmt::format("cannot examine: {}", std::strerror(errno));
    ::close(fd);
    return result;
  }
  result.file_size = static_cast<std::uint64_t>(info.st_size);
  const std::uint64_t wanted = std::min(result.file_size, max_bytes);
  result.bytes.resize(static_cast<std::size_t>(wanted));
  std::size_t done = 0;
  while (done < result.bytes.size()) {
    const ssize_t got = ::read(fd, result.bytes.data() + done, result.bytes.size() - done);
    if (got < 0) {
      if (errno == EINTR) continue;
      result.error = fmt::format("read failed at byte {}: {}", done, std::strerror(errno));
      break;
    }
    if (got == 0) break;  // the file shrank while we read it: keep what is there
    done += static_cast<std::size_t>(got);
  }
  ::close(fd);
  result.bytes.resize(done);
  if (done < wanted && result.error.empty()) result.file_size = done;
  return result;
}

}  // namespace animdex
