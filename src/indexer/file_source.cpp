#include "indexer/file_source.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/text.h"
#include "core/parse_error.h"
#include "indexer/file_reader.h"

namespace animdex {

FileSource::~FileSource() { ::close(fd_); }

std::variant<std::shared_ptr<FileSource>, std::string> FileSource::open(const std::filesystem::path& path) {
  struct stat named {};
  if (::stat(path.c_str(), &named) == 0 && !S_ISREG(named.st_mode))
    return fmt::format("not a regular file ({}); not read", file_type_name(named.st_mode));
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return fmt::format("cannot open: {}", std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    const std::string why = S_ISREG(info.st_mode) ? fmt::format("cannot examine: {}", std::strerror(errno))
                                                  : fmt::format("not a regular file ({}); not read", file_type_name(info.st_mode));
    ::close(fd);
    return why;
  }
  return std::shared_ptr<FileSource>(new FileSource(fd, static_cast<std::uint64_t>(info.st_size)));
}

void FileSource::read(std::uint64_t offset, std::span<std::byte> out) const {
  if (!contains(offset, out.size()))
    fail_at(offset, fmt::format("{} bytes inside the {}-byte file", out.size(), size_), "the range ends past it");
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t got = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      fail_at(offset + done, fmt::format("{} more bytes", out.size() - done),
              got < 0 ? fmt::format("a read error: {}", std::strerror(errno)) : "the end of the file (it shrank)");
    done += static_cast<std::size_t>(got);
  }
}

Sibling open_sibling(const std::filesystem::path& path, std::string_view extension) {
  const std::string lower = lowercase_ascii(extension);
  std::string upper(extension);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const auto& candidate : {lower, upper}) {
    auto sibling = path;
    sibling.replace_extension(candidate);
    auto opened = FileSource::open(sibling);
    if (auto* source = std::get_if<std::shared_ptr<FileSource>>(&opened)) return {*source, sibling.filename().string()};
  }
  return {};
}

}  // namespace animdex
