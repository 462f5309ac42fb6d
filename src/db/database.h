#pragma once
// Opening animdex databases: identity (application_id), schema version, pragmas.
#include <SQLiteCpp/Database.h>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <stdexcept>

#include "reference/reference_data.h"

namespace animdex {

inline constexpr int kSchemaVersion = 17;
inline constexpr int kApplicationId = 0x414E4458;  // 'ANDX'
// Page size of a new database: 16 KiB pages hold a GNT track's row and key blob several times
// over, and a bulk index writes a quarter of the pages (and WAL frames) 4 KiB pages would need.
inline constexpr int kPageSize = 16384;
// The writer's page cache (PRAGMA cache_size: negative is KiB): 32 MiB for bulk loads, part of the
// memory budget.
inline constexpr int kWriterCacheSize = -32768;

// The longest value (text or blob) any connection reads or writes: above the parse budget, which
// bounds what one file's rows can hold, so only a database made by hand reaches it (SQLITE_TOOBIG).
inline constexpr int kMaxValueBytes = 32 << 20;
// The longest SQL text a connection prepares (the schema's DDL is about 60 KiB).
inline constexpr int kMaxSqlBytes = 1 << 20;
// How many SQLite VM steps between two looks at the read deadline.
inline constexpr int kProgressSteps = 10000;
// Readers' default time budget (`--timeout`).
inline constexpr int kDefaultReadTimeoutSeconds = 300;

// A database that cannot be used: not animdex's, a newer schema, missing file, ...
class DatabaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Journal modes (README "Sharing a database"): `index` writes in WAL mode, so readers keep
// reading the previous dump while it runs, and switches the file back to DELETE mode when it
// finishes (when no reader holds it open). A database in DELETE mode is a single file: readers
// create nothing next to it, so it reads from read-only folders and media, and a reader of
// another user never leaves -wal/-shm files that the owner's next `index` could not open.

// For a process that only indexes:
// - SQLite's allocation statistics off (they take a process-wide mutex on every SQLite allocation,
//   which cost the writer 0.1 s of a 1.1 s index at 2 threads: an atomic lock per allocation while
//   the parse threads run); the statistics are what sqlite3_hard_heap_limit64 (`animdex sql`'s
//   memory bound) counts;
// - SQLite's page cache in an arena of its own (db/sqlite_memory.h), slots of kPageSize (and
//   SQLite's header) that the kernel may back with 2 MiB pages, as many as the writer's cache
//   holds. From malloc, each 4 KiB of the cache faulted in on first touch, dear on a VM
//   (bench/RESULTS.md, fourth session: the KH2-size DVD's re-index after one set changed 0.37-0.49 s
//   before, 0.30-0.40 s after). The arena is carved a slot at a time as SQLite asks, so an index
//   that changes little touches little of it (fifth session: SQLITE_CONFIG_PAGECACHE, which threads
//   a free list through every slot as SQLite initialises, made the whole region resident at start:
//   35-80 ms of a re-index). Other page sizes, and pages past the arena's slots, come from the heap.
// Only `index` and the bench that times it call it. SQLite accepts both only before it initialises,
// so it must come before the process opens any database; later it is a no-op.
void configure_sqlite_for_indexing();

// From now on, statements of readers (open_read_only, attach_read_only) are interrupted
// (SQLITE_INTERRUPT) once `budget` has passed; zero: no deadline. Process-wide: a command line
// sets it once for its reading.
void set_read_time_budget(std::chrono::milliseconds budget);
// What to say when a reader was interrupted by it.
std::string read_time_budget_text();
// What to say for SQLITE_TOOBIG: a value past kMaxValueBytes, which only a hand-made database holds.
std::string value_too_big_text();

// Opens (creating if needed) a database for writing and brings its schema up to date. A file
// that is not an animdex database is refused before anything is written to it. `busy_wait` is
// how long to wait for another writer (another `index`) before failing with who holds it.
SQLite::Database open_for_writing(const std::filesystem::path& path,
                                  std::chrono::milliseconds busy_wait = std::chrono::seconds(60));

// After the last write: checkpoints the WAL and switches to DELETE mode. Returns false (the
// database stays in WAL mode, which is still correct) when a reader has it open.
bool leave_wal_mode(SQLite::Database& db);

// Turns SQLITE_BUSY from a writer's wait into a DatabaseError naming the lock's holder.
void throw_if_locked(const SQLite::Exception& error, const std::filesystem::path& path,
                     std::chrono::milliseconds waited);

// Opens an existing animdex database read-only (for `query`, `sql`, reports). Never writes or
// creates a file: opened with mode=ro, and, where even that needs to write (a WAL database in a
// read-only folder), as immutable. Every connection (this one and the writer's) is hardened
// against a hostile file: defensive mode, an untrusted schema, no fts3 tokenizer pointers, no
// extensions, values at most kMaxValueBytes; a database whose schema objects are not the ones
// this build declares (a trigger, a redefined view or table) is refused naming the first.
SQLite::Database open_read_only(const std::filesystem::path& path);
// Attaches another animdex database to `db` read-only, as schema `schema` (e.g. for a query that
// compares two databases); the connection must have been opened by open_read_only.
void attach_read_only(SQLite::Database& db, const std::filesystem::path& path, std::string_view schema);

// Which process holds the database at `path`: "another writer: process 123 (animdex index ...)" or
// "a reader: process 77 (...)",
// or an empty string when nobody does or it cannot be told.
std::string describe_write_lock_holder(const std::filesystem::path& path);

// The whole DDL: schema/schema.sql, then each format's own tables (src/formats/*/*_tables.sql,
// embedded as format_table_files() lists them), all idempotent.
std::string schema_ddl();
std::vector<std::string_view> format_table_files();
// A file an index run wrote (its new row id and format) or removed or replaced (no id: its row is
// gone; the format it had), and whether that row was parsed (status ok: a format's own rows, such
// as a model's, exist only then).
struct ChangedFile {
  std::optional<std::int64_t> file_id;
  std::string format;
  bool ok = false;
};

// SQL a format runs after `index` has written a dump (`src/formats/*/*_after_index.sql`: joins
// between files, such as a DS animation's model), with the dump's id in `temp.indexing_dump` and
// `changes` in `temp.indexing_changes(file_id, format, ok)`, so a step can redo only what they touch.
void run_after_index(SQLite::Database& db, std::int64_t dump_id, const std::vector<ChangedFile>& changes);

// Identifies this build's data: version, schema, reference tables and queries. A dump indexed by
// another build is re-parsed in full, since names and rows may differ.
std::string build_id();

// Replaces the ref_* tables with `reference` (inside the caller's transaction, if any).
void load_reference_tables(SQLite::Database& db, const ReferenceData& reference);

}  // namespace animdex
