#pragma once
// A file read by range (pread): how the indexer and the CLI hand a disc image or archive to the
// container readers without loading it. The only file-system access besides file_reader.h.
#include <filesystem>
#include <memory>
#include <string>
#include <variant>

#include "containers/byte_source.h"

namespace animdex {

class FileSource final : public ByteSource {
 public:
  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, std::span<std::byte> out) const override;  // ParseFailure on a short read

  // Opens a regular file (a FIFO, device or socket is refused unopened, like read_file_bytes). On
  // failure, the reason.
  static std::variant<std::shared_ptr<FileSource>, std::string> open(const std::filesystem::path& path);

 private:
  FileSource(int fd, std::uint64_t size) : fd_(fd), size_(size) {}
  int fd_;
  std::uint64_t size_;
};

// The file beside `path` with the same stem and `extension` (".img": tried as ".img" and ".IMG"),
// opened; nullptr when there is none (KH2.IDX -> KH2.IMG).
struct Sibling {
  std::shared_ptr<const ByteSource> source;
  std::string name;  // its file name as found
};
Sibling open_sibling(const std::filesystem::path& path, std::string_view extension);

}  // namespace animdex
