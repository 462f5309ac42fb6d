#pragma once
// The single writer: owns the connection, inserts rows with prepared statements, and
// makes a dump visible only when it is complete (one transaction per dump: readers see
// the previous dump of the label until commit, then the new one, never a part).
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <chrono>
#include <cstdint>

struct sqlite3_stmt;
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <string>
#include <tuple>
#include <vector>

#include "db/database.h"
#include "indexer/rows.h"

namespace animdex {

class FileRowsDelete;  // db/dump_rows.h

struct DumpTotals {
  std::int64_t files = 0;
  std::int64_t ok = 0;
  std::int64_t errors = 0;
  std::int64_t unknown = 0;
  std::int64_t animations = 0;
  std::int64_t tracks = 0;
  std::int64_t keys = 0;
  std::uint64_t bytes = 0;
  bool incremental = false;      // the label's previous dump was updated in place
  bool bulk_load = false;        // bone_tracks' indexes built at the end (a first index, or a
                                 // replace: DumpWriter::write_mode)
  std::int64_t unchanged = 0;    // files whose rows were kept
  std::int64_t parsed = 0;       // files parsed (new or changed when incremental)
  std::int64_t removed = 0;      // files of the previous dump that are gone
  std::int64_t members = 0;      // of `files`, members of containers (rows with a parent)
  std::int64_t lost = 0;         // files the database refused even as an error row: a scan warning each
  bool single_file = false;      // the database was left in DELETE mode (no -wal/-shm files)
};

// What the previous dump of a label recorded about one file.
struct PreviousFile {
  std::int64_t id = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::optional<std::string> content_hash;
  FileStatus status = FileStatus::unknown;
  std::int64_t animation_count = 0;
  std::string format;
  bool member = false;  // has a parent container
  std::optional<std::uint64_t> stored_size;  // a whole file or member stored compressed: its stored bytes
  std::optional<std::string> stored_hash;    // a member stored compressed: the hash of its stored bytes
};

struct DumpSettings {
  std::string label;
  std::string root;
  bool incremental = true;       // keep unchanged files' rows when the label exists (same build, same storage)
  KeyStorage key_storage = KeyStorage::blob;  // --keyframes blob|rows|none
  std::chrono::milliseconds lock_wait{60'000};  // the busy timeout open_for_writing set (for messages)
  // The walked path of the only root when it is a file (an image given alone): if it is a container,
  // dumps.root_container names it, so diffs match its members by their paths inside it.
  std::optional<std::string> single_file_root;
  bool replace = false;  // an existing dump of the label indexed from other roots may be replaced
  // Another dump's roots may hold this one's (or the other way round): answers over every dump then
  // count the shared files twice, so it is refused unless asked for (DumpsOverlap).
  bool allow_overlap = false;
};

// The label names a dump indexed from other roots and replacing it was not asked for: indexing
// another tree under a label someone already used must not silently throw their dump away.
class LabelInUse : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// This run's roots and another dump's hold the same files (one root is, or is inside, the other):
// every answer over all dumps would count them twice.
class DumpsOverlap : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether two '\n'-separated root lists (dumps.root) share a file: a root of one is a root of the
// other or a folder above it.
bool roots_overlap(const std::string& roots, const std::string& other_roots);

class DumpWriter {
 public:
  // Starts the transaction and loads reference tables. An existing dump of the label is updated
  // in place when it can be (incremental, same build and keyframe storage), else replaced.
  DumpWriter(SQLite::Database& db, const DumpSettings& settings, const ReferenceData& reference);
  ~DumpWriter();  // rolls back unless finish() was called
  DumpWriter(const DumpWriter&) = delete;
  DumpWriter& operator=(const DumpWriter&) = delete;

  // The previous dump's record of `path`, when updating in place. Safe to call from any thread
  // while no write() runs concurrently with construction (the map is fixed after it).
  const PreviousFile* previous_file(const std::string& path) const;

  // A file's rows. Files are written in batches under one SAVEPOINT, since a savepoint per file
  // journalled the pages every file touched (the writer's time on 2,400 small files: 0.40 s with a
  // savepoint each, 0.28 s in batches); if the database refuses a row, the batch is rolled back and
  // written again a file at a time, each under its own savepoint, so only the refusing file becomes
  // an error row. A file whose rows hold more than kBatchBytes is written alone.
  void write(std::shared_ptr<const FileRow> file);
  void write(FileRow file) { write(std::make_shared<const FileRow>(std::move(file))); }
  void write_warning(const WalkWarning& warning);
  // Stamps the dump with its counts and time, then commits.
  void finish();

  const DumpTotals& totals() const { return totals_; }

 private:
  static constexpr std::size_t kBatchFiles = 32;
  static constexpr std::uint64_t kBatchBytes = 8 << 20;  // what the batch's rows hold (held_bytes)
  void write_one(const FileRow& file);  // under a savepoint of its own
  void open_batch();
  void release_batch();
  // Runs `write` inside the open savepoint `savepoint`. If the database refuses a row for a reason
  // in the data, rolls the savepoint back and releases it, undoes what the writer noted since
  // undo_.begin(), keeps the message in last_refusal_ and returns false; any other error is thrown.
  bool attempt(const char* savepoint, const std::function<void()>& write);
  // kept_, forgotten_ and container_ids_ change through these, so a refused attempt undoes them.
  bool keep(std::int64_t id);
  void forget(const std::string& path);
  void remember_container(const std::string& path, std::int64_t id);
  void add_warning(const WalkWarning& warning);  // a file's parse warnings, under its savepoint
  void write_rows(const FileRow& file);
  void reset_statements();
  void count(FileStatus status, std::uint64_t size);
  void remove_file(const PreviousFile& previous, const std::string& path);
  void delete_warnings(const std::string& path);
  // An unchanged container: every row of the previous dump under `path` + "/" is kept.
  void keep_members(const std::string& path);
  // A changed container keeps its row id (its members' parent_id), so it is updated, not replaced.
  void update_container(std::int64_t id, const FileRow& file);
  void bind_file_columns(SQLite::Statement& statement, const FileRow& file);
  void note_container(const FileRow& file, std::int64_t id);
  void note_root_container(const FileRow& file);  // dumps.root_container
  bool touch_unchanged(std::int64_t id, const FileRow& file);
  void write_file_contents(const FileRow& file, std::int64_t file_id);  // animations, tracks, keys, format rows
  // A format's own row, written after the file's animations so it can point at them; its statement
  // is prepared once per (table, columns) and kept.
  void write_format_row(const model::FormatRow& row, std::int64_t file_id, const std::vector<std::int64_t>& animation_ids);
  SQLite::Statement& format_statement(const model::FormatRow& row);
  std::unique_ptr<SQLite::Transaction> start_transaction(const DumpSettings& settings);

  SQLite::Database& db_;
  KeyStorage key_storage_ = KeyStorage::blob;
  // How this run writes (write_mode() says why):
  enum class WriteMode {
    checked,    // bone_tracks' indexes kept up to date: an update in place, a new dump beside
                // others, or a small one replaced beside others (its rows deleted set by set)
    // The others are bulk loads: bone_tracks' indexes built at finish().
    bulk_load,  // no dump in the database, or only the one this run replaces (emptied table by table)
    replace,    // one of several dumps replaced, one with a quarter of the tracks or more (its old
                // rows deleted set by set)
  };
  WriteMode write_mode(const DumpSettings& settings);
  // Declared before transaction_, which sets it.
  WriteMode mode_ = WriteMode::checked;
  // Turns enforcement back on when the writer goes, even from a constructor that threw after
  // start_transaction(): declared before transaction_, so it runs after the rollback.
  struct ForeignKeysBack {
    SQLite::Database* db = nullptr;
    ~ForeignKeysBack();
  } foreign_keys_back_;
  std::unordered_map<std::string, PreviousFile> previous_;
  std::unordered_set<std::int64_t> kept_;
  // Paths whose previous row went with the container it was in: written as new. The writer's
  // thread alone reads and writes it; previous_ stays as loaded, since the parse threads read it.
  std::unordered_set<std::string> forgotten_;
  std::vector<std::string> previous_paths_;  // sorted, made on the first keep_members()
  std::unordered_map<std::string, std::int64_t> container_ids_;  // this run's container rows by path
  std::optional<std::string> single_file_root_;
  std::unique_ptr<SQLite::Transaction> transaction_;
  std::int64_t dump_id_ = 0;
  SQLite::Statement insert_file_;
  SQLite::Statement insert_animation_;
  SQLite::Statement insert_track_;
  struct RawStatementDeleter {
    void operator()(sqlite3_stmt* statement) const;
  };
  std::unique_ptr<sqlite3_stmt, RawStatementDeleter> insert_key_;  // the hot loop: raw, no per-call checks
  SQLite::Statement insert_warning_;
  SQLite::Statement insert_behaviors_;
  SQLite::Statement insert_spline_;
  SQLite::Statement touch_file_;  // an unchanged file's new size, time and place (a changed image's members)
  SQLite::Statement delete_warnings_;  // a path's scan warnings, before its file is written again
  std::unordered_map<std::string, std::unique_ptr<SQLite::Statement>> format_statements_;
  std::unique_ptr<FileRowsDelete> file_rows_delete_;  // a previous file's rows; made when there are previous files
  // The files this run wrote and those it removed or replaced: what the post-index steps look at
  // again (run_after_index). A file rolled back by its savepoint stays listed, which only widens it.
  std::vector<ChangedFile> changes_;
  // The open batch: its files, held until it is released, to be written again if it is refused.
  struct Batch {
    bool open = false;
    std::vector<std::shared_ptr<const FileRow>> files;
    std::uint64_t bytes = 0;  // held_bytes of its files
  } batch_;
  // What the writer noted in memory since the open savepoint began, to put back if it is refused.
  struct Undo {
    bool active = false;
    DumpTotals totals_before;
    std::size_t changes_before = 0;  // changes_.size()
    std::vector<std::int64_t> kept;      // added to kept_
    std::vector<std::string> forgotten;  // added to forgotten_
    std::vector<std::pair<std::string, std::optional<std::int64_t>>> containers;  // container_ids_ before
    void begin(const DumpTotals& totals, std::size_t changes);
    void end();
    void restore(DumpTotals& totals, std::vector<ChangedFile>& changes, std::unordered_set<std::int64_t>& kept_ids,
                 std::unordered_set<std::string>& forgotten_paths,
                 std::unordered_map<std::string, std::int64_t>& container_ids);
  } undo_;
  std::string last_refusal_;  // the message of the last refused attempt
  DumpTotals totals_;
};

// Current UTC time as ISO 8601 (seconds precision).
std::string utc_now_iso8601();

}  // namespace animdex
