#pragma once
// Where the files of an indexed dump are on disk, to read them again (`report docs` draws their
// curves): the dump's roots (`dumps.root`) and each file's path relative to them (`files.path`).
#include <SQLiteCpp/Database.h>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace animdex::reports {

struct DumpRoots {
  std::vector<std::filesystem::path> folders;  // absolute, sorted (as `dumps.root` keeps them)
  bool single_image = false;  // the only root was a disc image or archive, the first part of every path
};

// The roots of the dump labelled `label` (none when there is no such dump).
DumpRoots dump_roots(SQLite::Database& db, const std::string& label);

// A file's place on disk; empty when no root matches. One root: the root and the path (an image
// given alone: beside it, since the path starts with the image's name). Several roots: the path
// starts with its root's folder name, `~2`, `~3` after a repeated one in the order given to `index`,
// which the dump does not keep: roots of one name are taken in sorted order.
std::filesystem::path file_on_disk(const DumpRoots& roots, const std::string& path);

// The model most of the file's animations are linked to (nitro_model_links, kh2_model_links), as
// the dump stores its path; none when no animation of the file is linked.
std::optional<std::string> linked_model(SQLite::Database& db, std::int64_t file_id);

}  // namespace animdex::reports
