#pragma once
// Opening animdex databases: identity (application_id), schema version, pragmas.
#include <SQLiteCpp/Database.h>
#include <filesystem>
#include <stdexcept>

#include "reference/reference_data.h"

namespace animdex {

inline constexpr int kSchemaVersion = 7;
inline constexpr int kApplicationId = 0x414E4458;  // 'ANDX'

// A database that cannot be used: not animdex's, a newer schema, missing file, ...
class DatabaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Opens (creating if needed) a database for writing and brings its schema up to date.
SQLite::Database open_for_writing(const std::filesystem::path& path);

// Opens an existing animdex database read-only (for `query`, `sql`, reports).
SQLite::Database open_read_only(const std::filesystem::path& path);

// Identifies this build's data: version, schema, reference tables and queries. A dump indexed by
// another build is re-parsed in full, since names and rows may differ.
std::string build_id();

// Replaces the ref_* tables with `reference` (inside the caller's transaction, if any).
void load_reference_tables(SQLite::Database& db, const ReferenceData& reference);

}  // namespace animdex
