#pragma once
// Lists candidate files under one or more roots. Knows nothing of formats.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace animdex {

struct WalkEntry {
  std::string relative_path;            // '/'-separated; prefixed by the root's name when several roots
  std::filesystem::path absolute_path;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::string error;                    // non-empty when the entry could not be examined or listed
};

// Something under a root that was passed over (a symbolic link loop, a dangling link).
struct WalkWarning {
  std::string relative_path;  // as WalkEntry::relative_path
  std::string message;
};

struct WalkResult {
  std::vector<WalkEntry> entries;       // sorted by relative_path within each root
  std::vector<WalkWarning> warnings;
};

// Walks each root recursively, following symbolic links to folders but never entering a
// folder (same device and inode) twice, so symlink loops terminate. A root may be a file.
// Unreadable folders and files become entries with `error` set; nothing here throws for them.
WalkResult walk_roots(const std::vector<std::filesystem::path>& roots);

}  // namespace animdex
