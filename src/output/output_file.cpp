#include "output/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <stdexcept>

namespace animdex {

namespace {

void write_to(const std::filesystem::path& path, std::string_view bytes, const std::filesystem::path& shown) {
  // stdio rather than ofstream: fclose reports the error of the final flush, with errno.
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw std::runtime_error(fmt::format("cannot write {}: {}", shown.string(), std::strerror(errno)));
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size() && std::fflush(file) == 0;
  const int write_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    const int reason = written ? errno : write_errno;
    if (path != shown) std::filesystem::remove(path);
    throw std::runtime_error(fmt::format("cannot write {}: {}", shown.string(), std::strerror(reason)));
  }
}

}  // namespace

void write_file_checked(const std::filesystem::path& path, std::string_view bytes) {
  // A regular file (or a new one) is written beside itself and renamed over: a failed write
  // leaves the previous file whole. Anything else (a device, a FIFO) is written in place.
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) return write_to(path, bytes, path);
  auto temporary = path;
  temporary += ".animdex-partial";
  write_to(temporary, bytes, path);
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary);
    throw std::runtime_error(fmt::format("cannot write {}: {}", path.string(), error.message()));
  }
}

bool flush_succeeded(std::ostream& out) {
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace animdex
