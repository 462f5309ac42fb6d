#include "output/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <ostream>
#include <stdexcept>

namespace animdex {

void write_file_checked(const std::filesystem::path& path, std::string_view bytes) {
  // stdio rather than ofstream: fclose reports the error of the final flush, with errno.
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw std::runtime_error(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size() && std::fflush(file) == 0;
  const int write_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed)
    throw std::runtime_error(
        fmt::format("cannot write {}: {}", path.string(), std::strerror(written ? errno : write_errno)));
}

bool flush_succeeded(std::ostream& out) {
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace animdex
