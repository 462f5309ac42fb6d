#pragma once
// Reads one file into memory: the only file-system access in the hot path.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace animdex {

struct FileBytes {
  std::vector<std::byte> bytes;
  std::uint64_t file_size = 0;  // size at open time (may exceed bytes.size() when truncated to a limit)
  std::string error;            // non-empty when the file could not be read
};

// Reads at most `max_bytes` from the start of `path`.
FileBytes read_file_bytes(const std::filesystem::path& path, std::uint64_t max_bytes);

}  // namespace animdex
