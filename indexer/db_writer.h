#pragma once
// The single writer: owns the connection, inserts rows with prepared statements, and
// makes a dump visible only when it is complete (one transaction per dump: readers see
// the previous dump of the label until commit, then the new one, never a part).
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "indexer/rows.h"

namespace animdex {

struct DumpTotals {
  std::int64_t files = 0;
  std::int64_t ok = 0;
  std::int64_t errors = 0;
  std::int64_t unknown = 0;
  std::int64_t animations = 0;
  std::int64_t tracks = 0;
  std::int64_t keys = 0;
  std::uint64_t bytes = 0;
};

class DumpWriter {
 public:
  // Starts the transaction, replaces any dump with this label, loads reference tables.
  DumpWriter(SQLite::Database& db, const std::string& label, const std::string& root,
             const ReferenceData& reference);
  ~DumpWriter();  // rolls back unless finish() was called
  DumpWriter(const DumpWriter&) = delete;
  DumpWriter& operator=(const DumpWriter&) = delete;

  void write(const FileRow& file);
  void write_warning(const WalkWarning& warning);  // also used for a file's parse warnings
  // Stamps the dump with its counts and time, then commits.
  void finish();

  const DumpTotals& totals() const { return totals_; }

 private:
  SQLite::Database& db_;
  std::unique_ptr<SQLite::Transaction> transaction_;
  std::int64_t dump_id_ = 0;
  SQLite::Statement insert_file_;
  SQLite::Statement insert_animation_;
  SQLite::Statement insert_track_;
  SQLite::Statement insert_key_;
  SQLite::Statement insert_warning_;
  SQLite::Statement insert_behaviors_;
  SQLite::Statement insert_spline_;
  DumpTotals totals_;
};

// Current UTC time as ISO 8601 (seconds precision).
std::string utc_now_iso8601();

}  // namespace animdex
