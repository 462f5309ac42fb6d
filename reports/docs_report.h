#pragma once
// `animdex report docs`: wiki-style documentation of every dump (or one), as GitHub markdown files
// and one self-contained HTML page with a bone-usage heatmap and a reuse chart. Built on the named
// queries docs-* and the reuse report; output is deterministic (stable order, no timestamps).
#include <SQLiteCpp/Database.h>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace animdex::reports {

struct DocsOptions {
  std::filesystem::path out;        // folder to write into (created)
  std::optional<std::string> dump;  // default: every dump
  std::size_t heatmap_bones = 160;  // HTML heatmap: the most used bones, at most this many columns
};

struct DocsSummary {
  std::vector<std::filesystem::path> files;  // written, relative to `out`
  std::filesystem::path html;                // the HTML page, relative to `out`
};

DocsSummary write_docs(SQLite::Database& db, const DocsOptions& options);

// A dump label as a folder name: characters other than letters, digits, '.', '-' and '_' become '_',
// and a label that changed gets '-' and 8 hex digits of its hash, so different labels never share a folder.
std::string folder_name(const std::string& label);

}  // namespace animdex::reports
