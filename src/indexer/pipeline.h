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
  bool allow_overlap = false;                   // --allow-overlap: roots that hold another dump's files (DumpsOverlap)
  ContainerLimits container_limits;             // caps on disc images and archives (containers/container.h)
  // What files waiting between the pipeline's stages may hold (indexer/flight_budget.h): files
  // parsing are bounded by the limits above. Tests lower it.
  std::uint64_t waiting_budget = 48ULL << 20;
};

// Where an index's wall time went, as `index -v` prints it. The set-up and the end are serial;
// inside the files' phase the scan and the writer are the pipeline's two serial stages, and the
// reads and parses between them run on every thread.
struct IndexPhases {
  double setup_seconds = 0.0;   // walk, database open, the writer's start
  double files_seconds = 0.0;   // every file scanned, read, parsed and written
  double scan_seconds = 0.0;    // of files_seconds: the serial scan (listing containers, opening members)
  double writer_seconds = 0.0;  // of files_seconds: the serial writer
  double end_seconds = 0.0;     // bone_tracks' index builds, post-index SQL, commit
};

struct IndexSummary {
  DumpTotals totals;
  std::vector<WalkWarning> warnings;  // walker warnings (symlink loops, dangling links), also in scan_warnings
  double seconds = 0.0;               // set-up + files + end of `phases`, to a few microseconds
  IndexPhases phases;
  // Compressed members of changed images kept by their stored bytes' hash, never decompressed.
  std::uint64_t kept_undecompressed = 0;
};

// The roots as a dump records them (`dumps.root`): absolute, normalised, sorted, one a line.
std::string describe_roots(const std::vector<std::filesystem::path>& roots);

// The label of the dump already indexed from exactly these roots, if the database has one: what
// `index` without --label updates, so running the same command again never makes a second copy.
std::optional<std::string> label_of_roots(const std::filesystem::path& database,
                                          const std::vector<std::filesystem::path>& roots);

// For a process that indexes: memory the parse stage frees stays with the process for the next
// file instead of going back to the kernel and faulting in again, which is dear on a VM
// (bench/RESULTS.md). glibc by default maps a large block (a file's bytes) on its own and unmaps it
// when freed, and trims a heap with more than a few hundred KiB free at its top. Kept memory is
// what each allocator arena held at its peak: with the pipeline's bound on files in flight, the
// adversarial tree of tests/reliability peaked at 153 MiB with this and 151-153 MiB without (3
// files in flight; with 9 and the waiting budget of flight_budget.h, 160-189 MiB with this).
// glibc only; elsewhere it does nothing.
void keep_freed_memory_for_reuse();

// Indexes the roots into the database as one dump. Throws DatabaseError (or
// std::runtime_error) for fatal problems; bad files are recorded, never thrown.
IndexSummary run_index(const IndexOptions& options);

}  // namespace animdex
