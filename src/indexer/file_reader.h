#pragma once
// Reads one file into memory: the only file-system access in the hot path.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/byte_buffer.h"

namespace animdex {

struct FileBytes {
  ByteBuffer bytes;
  std::uint64_t file_size = 0;  // size at open time (may exceed bytes.size() when truncated to a limit)
  std::string error;            // non-empty when the file could not be read
  bool not_regular = false;     // a FIFO, device, socket or folder: `error` says which; nothing was read
};

// Reads at most `max_bytes` from the start of `path`. A FIFO, socket, device or folder is reported
// (not_regular), never opened; a file swapped for one after that check is opened non-blocking and
// caught by fstat on the descriptor, so nothing here can block.
FileBytes read_file_bytes(const std::filesystem::path& path, std::uint64_t max_bytes);

// "FIFO", "socket", "character device", "block device", "folder", "symbolic link" or "special file".
std::string file_type_name(unsigned mode);

}  // namespace animdex
