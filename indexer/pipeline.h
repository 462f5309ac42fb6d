#pragma once
// walk (serial) -> read + detect + parse + rows (parallel, oneTBB) -> write (serial, in walk order).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "containers/container.h"
#include "indexer/db_writer.h"

namespace animdex {

struct IndexOptions {
  std::vector<std::filesystem::path> roots;
  std::filesystem::path database;
  std::string label = "default";
  int threads = 0;                 // 0: one per core
  bool show_progress = false;      // a progress line on stderr
  std::uint64_t max_file_size = kDefaultMaxFileSize;
  std::uint64_t parse_budget = kDefaultParseBudget;  // bytes one file may decode to
  std::chrono::milliseconds parse_time_limit{30'000};
  bool incremental = true;      // --full turns it off: re-parse every file
  KeyStorage key_storage = KeyStorage::blob;  // --keyframes blob|rows|none
  std::chrono::milliseconds lock_wait{60'000};  // --wait: how long to wait for another writer
  bool replace = false;                         // --replace: a label indexed from other roots may be replaced
  ContainerLimits container_limits;             // caps on disc images and archives (containers/container.h)
};

struct IndexSummary {
  DumpTotals totals;
  std::vector<WalkWarning> warnings;  // walker warnings (symlink loops, dangling links), also in scan_warnings
  double seconds = 0.0;
};

// The roots as a dump records them (`dumps.root`): absolute, normalised, sorted, one a line.
std::string describe_roots(const std::vector<std::filesystem::path>& roots);

// The label of the dump already indexed from exactly these roots, if the database has one: what
// `index` without --label updates, so running the same command again never makes a second copy.
std::optional<std::string> label_of_roots(const std::filesystem::path& database,
                                          const std::vector<std::filesystem::path>& roots);

// Indexes the roots into the database as one dump. Throws DatabaseError (or
// std::runtime_error) for fatal problems; bad files are recorded, never thrown.
IndexSummary run_index(const IndexOptions& options);

}  // namespace animdex
