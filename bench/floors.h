#pragma once
// What the machine and SQLite cannot go below, measured in the same run as the figures they bound
// (issue 40: a target that cannot hold is shown by the experiment that proves it).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "indexer/pipeline.h"
#include "indexer/rows.h"

namespace animdex::bench {

// The rows `animdex index` would write for every member of the container at `container` (a path
// into an image, as the verbs take it: `kh2.iso/KH2.IDX`), parsed across the threads, as the
// index pipeline parses them (keys encoded, then released). Throws when it cannot be listed.
std::vector<FileRow> member_rows(const std::filesystem::path& container);

// Where a re-index of an image after one member changed spends time it cannot avoid.
struct ReplaceFloor {
  double database_seconds = 0;  // that member's tracks deleted and inserted again, commit, checkpoint
  double parse_seconds = 0;     // its parse (detect, parse, rows), fastest of three
  double verify_seconds = 0;    // reading and hashing the container's stored bytes across the threads
  double total() const { return database_seconds + parse_seconds + verify_seconds; }
};

// `database` holds an index of the image `member` (`kh2.iso/KH2.IDX/obj/P_EX100.mset`) is in; it
// is changed (pass a copy). The database work is SQLite's alone, on a connection set up as the
// writer's for a re-index (WAL, 32 MiB cache, secure_delete off) but with foreign keys off, and
// only bone_tracks' rows: a lower bound of what the writer does for that member.
ReplaceFloor replace_floor(const std::filesystem::path& database, const std::filesystem::path& member,
                           const std::string& member_path_in_database);

// The fastest a 2-thread index of the same files could be, from a 1-thread index's own phases
// (`index -v`), were no work slower on two threads: the set-up and the end are serial; in the
// files' phase the scan and the writer are serial stages, and the files' work (theirs, the reads
// and the parses) can at best be shared out over the two cores, so that phase takes at least
// max(writer, scan, files / 2). A 1 -> 2 thread speed-up of those files cannot exceed the 1-thread
// index's seconds over this.
double two_thread_floor(const IndexPhases& one_thread);

}  // namespace animdex::bench
