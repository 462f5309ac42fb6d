#include "indexer/db_writer.h"

#include "containers/container_registry.h"

#include <chrono>
#include <initializer_list>
#include <tuple>
#include <string_view>
#include <type_traits>
#include <variant>
#include <fmt/chrono.h>
#include <fmt/format.h>

#include "db/database.h"
#include "db/dump_rows.h"
#include "indexer/table_columns.h"
#include "core/number_text.h"
#include "db/key_blob.h"

#include <sqlite3.h>

#include <algorithm>

namespace animdex {

namespace {

// The indexes dropped at the start of a bulk load come back with the schema's DDL. SQLite sorts an
// index's entries in runs as large as the page cache, then merges them: with the bulk load's 32 MiB,
// one run of 424,000 entries (1x bench corpus) sorted in 0.58 s, and in runs of 4 MiB, which stay
// in the CPU's caches, in 0.30 s. The cache is restored for the post-index SQL.
void build_deferred_indexes(SQLite::Database& db) {
  db.exec("PRAGMA cache_size = -4096");
  db.exec(schema_ddl());
  db.exec(fmt::format("PRAGMA cache_size = {}", kWriterCacheSize));
}

template <typename T>
void bind_optional(SQLite::Statement& statement, int index, const std::optional<T>& value) {
  if (!value) statement.bind(index);
  else if constexpr (std::is_same_v<T, std::string>) statement.bind(index, *value);
  else if constexpr (std::is_floating_point_v<T>) statement.bind(index, as_stored(static_cast<double>(*value)));
  else statement.bind(index, static_cast<std::int64_t>(*value));
}

// `float32`: the track's values are the file's float32s (model::float32_values), stored under the
// float32 rule; any other number is stored as it is.
void bind_raw(sqlite3_stmt* statement, int index, const std::optional<double>& value, bool float32) {
  if (value) sqlite3_bind_double(statement, index, float32 ? as_stored(*value) : *value);
  else sqlite3_bind_null(statement, index);
}

void bind_raw(sqlite3_stmt* statement, int index, const std::optional<std::int64_t>& value) {
  if (value) sqlite3_bind_int64(statement, index, *value);
  else sqlite3_bind_null(statement, index);
}

// A dump's roots as a set: databases before v11 recorded several roots in the order given.
std::vector<std::string> root_lines(const std::string& roots) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = roots.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(roots.substr(start, end - start));
  lines.push_back(roots.substr(start));
  std::sort(lines.begin(), lines.end());
  return lines;
}

// How much dearer a track of a replaced dump is to delete and write again with bone_tracks' indexes
// kept up to date than to delete without them, for each track of the database whose indexes a bulk
// load builds again (write_mode). Measured without enforcement: deleting the KH2-size DVD's 1.8 M
// tracks took 4.3 s with the indexes and 0.76 s without, building them 1.7 s; writing a track
// into live indexes cost about 1.5 us more (1x corpus). So (2.4 + 1.5 - 0.4) us a replaced track
// against 0.94 us a track of the database: about 3.7.
constexpr std::int64_t kReplaceTrackCost = 4;

// The dump `settings.label` names, and what this run may do with it.
struct LabelledDump {
  std::int64_t id = 0;
  std::string root;
  bool same_roots = false;  // indexed from the same roots, in any order
  bool reusable = false;    // updated in place: incremental, the same build, keyframe storage and roots
};

std::optional<LabelledDump> labelled_dump(SQLite::Database& db, const DumpSettings& settings) {
  SQLite::Statement existing(db, "SELECT id, build_id, keyframe_storage, root FROM dumps WHERE label = ?");
  existing.bind(1, settings.label);
  if (!existing.executeStep()) return std::nullopt;
  LabelledDump dump;
  dump.id = existing.getColumn(0).getInt64();
  dump.root = existing.getColumn(3).getString();
  dump.same_roots = root_lines(dump.root) == root_lines(settings.root);
  const bool same_build = !existing.getColumn(1).isNull() && existing.getColumn(1).getString() == build_id();
  dump.reusable = settings.incremental && same_build &&
                  existing.getColumn(2).getString() == key_storage_name(settings.key_storage) &&
                  dump.root == settings.root;
  return dump;
}

// `inner` is `outer` or lies below it (whole path components: /a/dump2 is not below /a/dump).
bool is_within(const std::string& inner, const std::string& outer) {
  if (!inner.starts_with(outer)) return false;
  return inner.size() == outer.size() || outer.ends_with('/') || inner[outer.size()] == '/';
}

// Refuses the run when another dump's roots overlap this one's, naming it (DumpSettings::allow_overlap).
void check_overlap(SQLite::Database& db, const DumpSettings& settings) {
  if (settings.allow_overlap) return;
  SQLite::Statement others(db, "SELECT label, root FROM dumps WHERE label <> ? ORDER BY label");
  others.bind(1, settings.label);
  while (others.executeStep()) {
    const std::string other_root = others.getColumn(1).getString();
    if (!roots_overlap(settings.root, other_root)) continue;
    throw DumpsOverlap(fmt::format(
        "this run's root {} and dump '{}' (indexed from {}) hold the same files, so every answer over all dumps "
        "would count them twice. Remove that dump first (`animdex drop {} --db ...`), index into another database, "
        "or pass --allow-overlap to keep both (then give -p dump to count one)",
        settings.root, others.getColumn(0).getString(), other_root, others.getColumn(0).getString()));
  }
}

}  // namespace

bool roots_overlap(const std::string& roots, const std::string& other_roots) {
  // Through links too: a link to a dump's folder holds its files. A root that is gone keeps its text.
  const auto resolved = [](const std::string& root) {
    std::error_code error;
    const auto canonical = std::filesystem::weakly_canonical(root, error);
    return error ? root : canonical.string();
  };
  for (const auto& root : root_lines(roots))
    for (const auto& other : root_lines(other_roots)) {
      const auto a = resolved(root), b = resolved(other);
      if (is_within(root, other) || is_within(other, root) || is_within(a, b) || is_within(b, a)) return true;
    }
  return false;
}

namespace {

void step_raw(SQLite::Database& db, sqlite3_stmt* statement) {
  const int rc = sqlite3_step(statement);
  sqlite3_reset(statement);
  if (rc != SQLITE_DONE) throw SQLite::Exception(db.getHandle(), rc);
}

void run(SQLite::Statement& statement) {
  statement.exec();
  statement.reset();
}

// Takes the write lock now (BEGIN IMMEDIATE), waiting up to the busy timeout for another writer,
// so a second `index` waits at the start instead of failing halfway with "database is locked".
std::unique_ptr<SQLite::Transaction> begin_writing(SQLite::Database& db, std::chrono::milliseconds wait) {
  try {
    return std::make_unique<SQLite::Transaction>(db, SQLite::TransactionBehavior::IMMEDIATE);
  } catch (const SQLite::Exception& error) {
    throw_if_locked(error, db.getFilename(), wait);
    throw;
  }
}

}  // namespace

namespace table_columns {

std::string insert_sql(std::string_view table, std::span<const std::string_view> columns) {
  std::string names, values;
  for (const auto column : columns) {
    names += fmt::format("{}{}", names.empty() ? "" : ", ", column);
    values += fmt::format("{}:{}", values.empty() ? "" : ", ", column);
  }
  return fmt::format("INSERT INTO {}({}) VALUES ({})", table, names, values);
}

std::string update_sql(std::string_view table, std::span<const std::string_view> columns) {
  std::string names, values;
  for (const auto column : columns) {
    names += fmt::format("{}{}", names.empty() ? "" : ", ", column);
    values += fmt::format("{}:{}", values.empty() ? "" : ", ", column);
  }
  return fmt::format("UPDATE {} SET ({}) = ({}) WHERE id = :id", table, names, values);
}

}  // namespace table_columns

using table_columns::insert_sql;
using table_columns::update_sql;
using table_columns::parameter;
using table_columns::kFiles, table_columns::kAnimations, table_columns::kBoneTracks, table_columns::kKeyframeRows,
    table_columns::kKeySplineRows, table_columns::kTrackBehaviors, table_columns::kScanWarnings;

std::string utc_now_iso8601() {
  const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", now);
}

DumpWriter::DumpWriter(SQLite::Database& db, const DumpSettings& settings, const ReferenceData& reference)
    : db_(db),
      key_storage_(settings.key_storage),
      single_file_root_(settings.single_file_root),
      transaction_(start_transaction(settings)),
      insert_file_(db, insert_sql("files", table_columns::kFiles)),
      insert_animation_(db, insert_sql("animations", table_columns::kAnimations)),
      insert_track_(db, insert_sql("bone_tracks", table_columns::kBoneTracks)),
      insert_warning_(db, insert_sql("scan_warnings", table_columns::kScanWarnings)),
      insert_behaviors_(db, insert_sql("track_behaviors", table_columns::kTrackBehaviors)),
      insert_spline_(db, insert_sql("key_spline_rows", table_columns::kKeySplineRows)),
      touch_file_(db, "UPDATE files SET size = ?, mtime_ns = ?, member_name = ?, member_offset = ?, stored_size = ?, "
                      "compression = ?, stored_hash = ? WHERE id = ? AND path = ?"),
      delete_warnings_(db, "DELETE FROM scan_warnings WHERE dump_id = ? AND path = ?") {
  sqlite3_stmt* key_statement = nullptr;
  const std::string key_sql = insert_sql("keyframe_rows", table_columns::kKeyframeRows);
  const int prepared = sqlite3_prepare_v2(db.getHandle(), key_sql.c_str(), -1, &key_statement, nullptr);
  insert_key_.reset(key_statement);
  if (prepared != SQLITE_OK) throw SQLite::Exception(db.getHandle(), prepared);
  totals_.bulk_load = mode_ != WriteMode::checked;
  if (mode_ != WriteMode::checked)  // before the old rows go, so their delete does not update them
    for (const auto index : table_columns::kDeferredIndexes) db.exec(fmt::format("DROP INDEX IF EXISTS {}", index));
  bool same_roots_as_before = false;  // a dump re-indexed from its roots: its overlaps were accepted then
  if (const auto previous = labelled_dump(db, settings)) {
    same_roots_as_before = previous->same_roots;
    if (!same_roots_as_before && !settings.replace)
      throw LabelInUse(fmt::format("the database already holds a dump labelled '{}', indexed from {}; this run's "
                                   "root is {}. Give this dump its own --label, or --replace to replace that one",
                                   settings.label, previous->root, settings.root));
    if (previous->reusable) {
      dump_id_ = previous->id;
      totals_.incremental = true;
    } else if (mode_ == WriteMode::bulk_load) {
      delete_every_dump(db);  // the database's only dump (start_transaction)
    } else {
      delete_dump(db, previous->id);
    }
  }
  if (!same_roots_as_before) check_overlap(db, settings);
  load_reference_tables(db, reference);
  if (totals_.incremental) {
    SQLite::Statement files(db, "SELECT id, path, size, mtime_ns, content_hash, status, animation_count, format, "
                                "parent_id IS NOT NULL, stored_size, stored_hash FROM files WHERE dump_id = ?");
    files.bind(1, dump_id_);
    while (files.executeStep()) {
      PreviousFile file;
      file.id = files.getColumn(0).getInt64();
      file.size = static_cast<std::uint64_t>(files.getColumn(2).getInt64());
      file.mtime_ns = files.getColumn(3).getInt64();
      if (!files.getColumn(4).isNull()) file.content_hash = files.getColumn(4).getString();
      file.status = parse_status(files.getColumn(5).getString()).value_or(FileStatus::unknown);
      file.animation_count = files.getColumn(6).getInt64();
      file.format = files.getColumn(7).getString();
      file.member = files.getColumn(8).getInt() != 0;
      if (!files.getColumn(9).isNull()) file.stored_size = static_cast<std::uint64_t>(files.getColumn(9).getInt64());
      if (!files.getColumn(10).isNull()) file.stored_hash = files.getColumn(10).getString();
      previous_.emplace(files.getColumn(1).getString(), std::move(file));
    }
    // Its temporary tables made here, before any savepoint, which would drop them on rolling back.
    file_rows_delete_ = std::make_unique<FileRowsDelete>(db);
    // Walk warnings are produced again by this run; a file's parse warnings stay with its rows.
    SQLite::Statement clear(db, "DELETE FROM scan_warnings WHERE dump_id = ? AND path NOT IN "
                                "(SELECT path FROM files WHERE dump_id = ?)");
    clear.bind(1, dump_id_);
    clear.bind(2, dump_id_);
    clear.exec();
    SQLite::Statement stamp(db, "UPDATE dumps SET tool_version = ?, root_container = NULL WHERE id = ?");
    stamp.bind(1, ANIMDEX_VERSION);
    stamp.bind(2, dump_id_);
    stamp.exec();
    return;
  }
  SQLite::Statement insert(db, "INSERT INTO dumps(label, root, indexed_at, tool_version, build_id, keyframe_storage) "
                               "VALUES (?,?,?,?,?,?)");
  insert.bind(1, settings.label);
  insert.bind(2, settings.root);
  insert.bind(3, utc_now_iso8601());
  insert.bind(4, ANIMDEX_VERSION);
  insert.bind(5, build_id());
  insert.bind(6, std::string(key_storage_name(settings.key_storage)));
  insert.exec();
  dump_id_ = db.getLastInsertRowid();
}

void DumpWriter::RawStatementDeleter::operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }

// Every run writes without foreign-key enforcement. A first index deletes nothing and writes every
// reference from an id it has just inserted; a re-index writes references to ids it has just
// inserted or kept, and deletes a file's old rows set by set (FileRowsDelete, db/dump_rows.h).
// With enforcement, each insert paid for a parent lookup and a statement journal (the writer's
// time doubled), and the cascade from a file's row looked up each deleted track's children
// through a trigger program of their own (one KH2 motion set of 9,278 tracks: 0.10-0.12 s against
// 0.02 s set by set). The tests check every database they index with PRAGMA foreign_key_check.
//
// A first index into a database without dumps is a bulk load: it builds bone_tracks' two indexes
// after its rows (one sort each instead of a B-tree insert per row). So is a run that replaces the
// database's only dump (a new build parses every file again; --full, another --keyframes,
// --replace): it empties the tables that hang from dumps (delete_every_dump) and then writes as
// into a new database. A run that replaces one of several dumps, one that holds at least a quarter
// of the database's tracks, deletes its rows set by set (delete_dump) and is a bulk load as well:
// bone_tracks' indexes, dropped first, cost more to keep up to date through the deletes and
// inserts than to build again over every dump's rows at the end (KH2-size DVD: deleting its
// tracks 4.3 s with the indexes, 0.8 s without; building them 1.7 s). A smaller one is deleted
// set by set with the indexes kept up to date, which costs only its own rows.
DumpWriter::WriteMode DumpWriter::write_mode(const DumpSettings& settings) {
  const auto dumps = db_.execAndGet("SELECT count(*) FROM dumps").getInt64();
  if (dumps == 0) return WriteMode::bulk_load;
  const auto previous = labelled_dump(db_, settings);
  if (!previous || previous->reusable || !(previous->same_roots || settings.replace)) return WriteMode::checked;
  if (dumps == 1) return WriteMode::bulk_load;
  // Building bone_tracks' indexes again covers every dump's tracks; deleting and writing with them
  // kept up to date costs only this dump's, about four times dearer a track (kReplaceTrackCost).
  SQLite::Statement tracks(db_, "SELECT coalesce(sum(a.track_count), 0), coalesce(sum(a.track_count) FILTER "
                                "(WHERE f.dump_id = ?), 0) FROM animations a JOIN files f ON f.id = a.file_id");
  tracks.bind(1, previous->id);
  tracks.executeStep();
  const auto all = tracks.getColumn(0).getInt64();
  const auto replaced = tracks.getColumn(1).getInt64();
  return replaced * kReplaceTrackCost >= all ? WriteMode::replace : WriteMode::checked;
}

// The pragma is a no-op inside a transaction, so it goes before BEGIN; the mode is decided after
// it, when no other writer can change what it reads.
std::unique_ptr<SQLite::Transaction> DumpWriter::start_transaction(const DumpSettings& settings) {
  db_.exec("PRAGMA foreign_keys = OFF");
  foreign_keys_back_.db = &db_;
  auto transaction = begin_writing(db_, settings.lock_wait);
  mode_ = write_mode(settings);
  return transaction;
}

DumpWriter::ForeignKeysBack::~ForeignKeysBack() {
  if (db) db->tryExec("PRAGMA foreign_keys = ON");  // the connection as open_for_writing left it
}

DumpWriter::~DumpWriter() = default;  // ~Transaction rolls back if finish() did not commit

const PreviousFile* DumpWriter::previous_file(const std::string& path) const {
  const auto found = previous_.find(path);
  return found == previous_.end() ? nullptr : &found->second;
}

void DumpWriter::keep_members(const std::string& path) {
  if (previous_paths_.empty()) {
    previous_paths_.reserve(previous_.size());
    for (const auto& [previous_path, previous] : previous_) previous_paths_.push_back(previous_path);
    std::sort(previous_paths_.begin(), previous_paths_.end());
  }
  const std::string prefix = path + "/";
  for (auto it = std::lower_bound(previous_paths_.begin(), previous_paths_.end(), prefix);
       it != previous_paths_.end() && it->compare(0, prefix.size(), prefix) == 0; ++it) {
    const PreviousFile& member = previous_.at(*it);
    if (!keep(member.id)) continue;
    ++totals_.unchanged;
    totals_.animations += member.animation_count;
    if (member.member) ++totals_.members;
    count(member.status, member.size);
  }
}

void DumpWriter::note_container(const FileRow& file, std::int64_t id) {
  if (!is_container_format(file.format)) return;
  remember_container(file.path, id);
  note_root_container(file);
}

// A file whose content hash is unchanged keeps its rows; its size, time and where it sits in its
// container (a member may have moved) are brought up to date. False when the row is gone.
// parent_id is left as it is: a member's row outlives a run only with its container's, which keeps
// its id (keep_members, update_container). (When re-indexes wrote with foreign-key enforcement,
// setting it anyway made SQLite copy every page each UPDATE touched into its sub-journal first:
// 100 MB for the 1,222 sets a KH2 DVD keeps when one changes.)
bool DumpWriter::touch_unchanged(std::int64_t id, const FileRow& file) {
  SQLite::Statement& touch = touch_file_;
  touch.reset();
  touch.bind(1, static_cast<std::int64_t>(file.size));
  touch.bind(2, file.mtime_ns);
  bind_optional(touch, 3, file.member_name);
  bind_optional(touch, 4, file.member_offset);
  bind_optional(touch, 5, file.stored_size);
  bind_optional(touch, 6, file.compression);
  bind_optional(touch, 7, file.stored_hash);
  touch.bind(8, id);
  touch.bind(9, file.path);  // the id is another row's when the file went with its container (FileRowsDelete::run)
  return touch.exec() == 1;
}

void DumpWriter::note_root_container(const FileRow& file) {
  if (!file.parent_path.empty() || single_file_root_ != file.path) return;
  SQLite::Statement root(db_, "UPDATE dumps SET root_container = ? WHERE id = ?");
  root.bind(1, file.path);
  root.bind(2, dump_id_);
  root.exec();
}

void DumpWriter::count(FileStatus status, std::uint64_t size) {
  ++totals_.files;
  totals_.bytes += size;
  if (status == FileStatus::ok) ++totals_.ok;
  else if (status == FileStatus::error) ++totals_.errors;
  else ++totals_.unknown;
}

void DumpWriter::remove_file(const PreviousFile& previous, const std::string& path) {
  changes_.push_back({std::nullopt, previous.format, previous.status == FileStatus::ok});
  delete_warnings(path);
  file_rows_delete_->run(previous.id, path);
}

void DumpWriter::delete_warnings(const std::string& path) {
  delete_warnings_.reset();
  delete_warnings_.bind(1, dump_id_);
  delete_warnings_.bind(2, path);
  delete_warnings_.exec();
}

// Errors a file's own values can cause (as opposed to a full disk or a broken database).
bool caused_by_data(const SQLite::Exception& error) {
  switch (error.getErrorCode() & 0xFF) {
    case SQLITE_CONSTRAINT: case SQLITE_TOOBIG: case SQLITE_MISMATCH: return true;
    default: return false;
  }
}

void DumpWriter::write(std::shared_ptr<const FileRow> file) {
  const std::uint64_t held = held_bytes(*file);
  // A large file is written alone: a batch holds its files' rows until it is released.
  if (held > kBatchBytes) {
    release_batch();
    write_one(*file);
    return;
  }
  if (!batch_.open) open_batch();
  batch_.files.push_back(file);
  batch_.bytes += held;
  if (!attempt("file_batch", [&] { write_rows(*file); })) {
    auto files = std::move(batch_.files);
    batch_ = Batch{};
    for (const auto& again : files) write_one(*again);
    return;
  }
  if (batch_.files.size() >= kBatchFiles || batch_.bytes >= kBatchBytes) release_batch();
}

void DumpWriter::open_batch() {
  db_.exec("SAVEPOINT file_batch");
  batch_.open = true;
  undo_.begin(totals_, changes_.size());
}

void DumpWriter::release_batch() {
  if (!batch_.open) return;
  db_.exec("RELEASE file_batch");
  batch_ = Batch{};
  undo_.end();
}

bool DumpWriter::attempt(const char* savepoint, const std::function<void()>& write) {
  try {
    write();
    return true;
  } catch (const SQLite::Exception& error) {
    reset_statements();
    // After a full disk or an I/O error SQLite may have rolled back the whole transaction itself:
    // then there is no savepoint left, and the original error is the one to report.
    if (!caused_by_data(error) || sqlite3_get_autocommit(db_.getHandle())) {
      undo_.end();
      throw;
    }
    try {
      db_.exec(fmt::format("ROLLBACK TO {}", savepoint));
      db_.exec(fmt::format("RELEASE {}", savepoint));
    } catch (const SQLite::Exception&) {
      undo_.end();
      throw error;
    }
    undo_.restore(totals_, changes_, kept_, forgotten_, container_ids_);
    last_refusal_ = error.what();
    return false;
  }
}

void DumpWriter::Undo::begin(const DumpTotals& totals, std::size_t changes) {
  *this = Undo{};
  active = true;
  totals_before = totals;
  changes_before = changes;
}

void DumpWriter::Undo::end() { *this = Undo{}; }

void DumpWriter::Undo::restore(DumpTotals& totals, std::vector<ChangedFile>& changes,
                               std::unordered_set<std::int64_t>& kept, std::unordered_set<std::string>& forgotten,
                               std::unordered_map<std::string, std::int64_t>& container_ids) {
  totals = totals_before;
  changes.resize(changes_before);
  for (const auto id : this->kept) kept.erase(id);
  for (const auto& path : this->forgotten) forgotten.erase(path);
  for (auto undo = containers.rbegin(); undo != containers.rend(); ++undo) {
    if (undo->second) container_ids[undo->first] = *undo->second;
    else container_ids.erase(undo->first);
  }
  this->kept.clear();
  this->forgotten.clear();
  containers.clear();
}

bool DumpWriter::keep(std::int64_t id) {
  const bool added = kept_.insert(id).second;
  if (added && undo_.active) undo_.kept.push_back(id);
  return added;
}

void DumpWriter::forget(const std::string& path) {
  if (forgotten_.insert(path).second && undo_.active) undo_.forgotten.push_back(path);
}

void DumpWriter::remember_container(const std::string& path, std::int64_t id) {
  if (undo_.active) {
    const auto before = container_ids_.find(path);
    undo_.containers.emplace_back(
        path, before == container_ids_.end() ? std::nullopt : std::optional<std::int64_t>(before->second));
  }
  container_ids_[path] = id;
}

// The file's rows with the columns that say where it is, status error and `message`.
namespace {

FileRow error_row(const FileRow& file, std::string message) {
  FileRow row;
  row.path = file.path;
  row.character = file.character;
  row.format = file.format;
  row.size = file.size;
  row.mtime_ns = file.mtime_ns;
  row.content_hash = file.content_hash;
  row.parent_path = file.parent_path;
  row.member_name = file.member_name;
  row.member_offset = file.member_offset;
  row.stored_size = file.stored_size;
  row.compression = file.compression;
  row.status = FileStatus::error;
  row.error = std::move(message);
  return row;
}

}  // namespace

void DumpWriter::write_one(const FileRow& file) {
  // One file's rows under a savepoint: if the database refuses any of them, only this file is
  // rolled back and recorded as an error, and the scan goes on.
  undo_.begin(totals_, changes_.size());
  db_.exec("SAVEPOINT file_rows");
  if (attempt("file_rows", [&] { write_rows(file); })) {
    db_.exec("RELEASE file_rows");
    undo_.end();
    return;
  }
  const FileRow refused = error_row(file, fmt::format("the database refused this file's rows: {}", last_refusal_));
  db_.exec("SAVEPOINT refused_row");
  if (attempt("refused_row", [&] { write_rows(refused); })) {
    db_.exec("RELEASE refused_row");
  } else {
    // Even the error row is refused (its path is taken): a warning is all that can be kept.
    ++totals_.lost;  // never silent: the summary says so and `index` exits 3
    add_warning({file.path, refused.error.value()});
  }
  undo_.end();
}

void DumpWriter::reset_statements() {
  for (SQLite::Statement* statement :
       {&insert_file_, &insert_animation_, &insert_track_, &insert_warning_, &insert_behaviors_, &insert_spline_,
        &touch_file_, &delete_warnings_})
    statement->tryReset();  // reset() would throw the failed step's error again
  for (auto& [key, statement] : format_statements_) statement->tryReset();
  if (file_rows_delete_) file_rows_delete_->reset();
  sqlite3_reset(insert_key_.get());
}

void DumpWriter::write_rows(const FileRow& file) {
  const PreviousFile* previous = forgotten_.count(file.path) ? nullptr : previous_file(file.path);
  if (!file.parent_path.empty()) ++totals_.members;
  if (previous && file.reuse != Reuse::none) {
    keep(previous->id);
    if (file.keep_members) {
      remember_container(file.path, previous->id);
      note_root_container(file);
      keep_members(file.path);
    }
    ++totals_.unchanged;
    totals_.animations += previous->animation_count;
    if (file.reuse == Reuse::unchanged_content && !touch_unchanged(previous->id, file)) {
      // Its row went with a container it used to be inside (a container that is now a plain
      // file): the parse was skipped for the hash, so say so rather than lose the file.
      --totals_.unchanged;
      totals_.animations -= previous->animation_count;
      const FileRow lost = error_row(
          file, "its rows from the last index went with the container it was in; `index --full` parses it again");
      changes_.push_back({std::nullopt, previous->format, previous->status == FileStatus::ok});  // its row is gone
      forget(file.path);  // not erased from previous_: the parse threads read it meanwhile
      if (!file.parent_path.empty()) --totals_.members;  // counted again by the row written instead
      write_rows(lost);
      return;
    }
    count(previous->status, file.size);
    return;
  }
  if (previous && is_container_format(previous->format) && is_container_format(file.format)) {
    keep(previous->id);
    // An unchanged nested container (same bytes) is listed again but counts as unchanged.
    const bool same = previous->content_hash && previous->content_hash == file.content_hash && previous->status == file.status;
    ++(same ? totals_.unchanged : totals_.parsed);
    update_container(previous->id, file);
    for (const auto& warning : file.warnings) add_warning({file.path, warning});
    return;
  }
  if (previous) {
    keep(previous->id);  // handled: its old rows go now
    remove_file(*previous, file.path);
  }
  ++totals_.parsed;
  bind_file_columns(insert_file_, file);
  run(insert_file_);
  const std::int64_t file_id = db_.getLastInsertRowid();
  changes_.push_back({file_id, file.format, file.status == FileStatus::ok});
  note_container(file, file_id);
  for (const auto& warning : file.warnings) add_warning({file.path, warning});
  write_file_contents(file, file_id);
}

void DumpWriter::update_container(std::int64_t id, const FileRow& file) {
  delete_warnings(file.path);
  SQLite::Statement update(db_, update_sql("files", kFiles));
  bind_file_columns(update, file);
  update.bind(static_cast<int>(std::size(kFiles)) + 1, id);
  update.exec();
  note_container(file, id);
  count(file.status, file.size);
}

void DumpWriter::bind_file_columns(SQLite::Statement& insert_file_, const FileRow& file) {
  insert_file_.bind(parameter(kFiles, "dump_id"), dump_id_);
  insert_file_.bind(parameter(kFiles, "path"), file.path);
  bind_optional(insert_file_, parameter(kFiles, "character"), file.character);
  insert_file_.bind(parameter(kFiles, "format"), file.format);
  insert_file_.bind(parameter(kFiles, "size"), static_cast<std::int64_t>(file.size));
  insert_file_.bind(parameter(kFiles, "mtime_ns"), file.mtime_ns);
  bind_optional(insert_file_, parameter(kFiles, "content_hash"), file.content_hash);
  insert_file_.bind(parameter(kFiles, "status"), std::string(status_name(file.status)));
  bind_optional(insert_file_, parameter(kFiles, "error"), file.error);
  bind_optional(insert_file_, parameter(kFiles, "error_offset"), file.error_offset);
  insert_file_.bind(parameter(kFiles, "animation_count"), static_cast<std::int64_t>(file.model.animations.size()));
  bind_optional(insert_file_, parameter(kFiles, "parse_ms"), file.parse_ms);
  std::optional<std::int64_t> parent_id;
  if (!file.parent_path.empty())
    if (const auto parent = container_ids_.find(file.parent_path); parent != container_ids_.end()) parent_id = parent->second;
  bind_optional(insert_file_, parameter(kFiles, "parent_id"), parent_id);
  bind_optional(insert_file_, parameter(kFiles, "member_name"), file.member_name);
  bind_optional(insert_file_, parameter(kFiles, "member_offset"), file.member_offset);
  bind_optional(insert_file_, parameter(kFiles, "stored_size"), file.stored_size);
  bind_optional(insert_file_, parameter(kFiles, "compression"), file.compression);
  bind_optional(insert_file_, parameter(kFiles, "stored_hash"), file.stored_hash);
}

void DumpWriter::write_file_contents(const FileRow& file, std::int64_t file_id) {
  for (const auto& warning : file.model.warnings) add_warning({file.path, warning});

  count(file.status, file.size);

  std::vector<std::int64_t> animation_ids;
  for (std::size_t a = 0; a < file.model.animations.size(); ++a) {
    const auto& animation = file.model.animations[a];
    const auto& animation_row = file.animations[a];
    insert_animation_.bind(parameter(kAnimations, "file_id"), file_id);
    bind_optional(insert_animation_, parameter(kAnimations, "slot"), animation.slot);
    bind_optional(insert_animation_, parameter(kAnimations, "motion_id"), animation.motion_id);
    bind_optional(insert_animation_, parameter(kAnimations, "name"), animation_row.name);
    bind_optional(insert_animation_, parameter(kAnimations, "play_speed"), animation.play_speed);
    bind_optional(insert_animation_, parameter(kAnimations, "end_time"), animation.end_time);
    bind_optional(insert_animation_, parameter(kAnimations, "frame_count"), animation.frame_count);
    insert_animation_.bind(parameter(kAnimations, "track_count"), static_cast<std::int64_t>(animation.tracks.size()));
    insert_animation_.bind(parameter(kAnimations, "key_count"), animation_row.key_count);
    insert_animation_.bind(parameter(kAnimations, "content_hash"), animation_row.content_hash);
    insert_animation_.bind(parameter(kAnimations, "shape_hash"), animation_row.shape_hash);
    run(insert_animation_);
    const std::int64_t animation_id = db_.getLastInsertRowid();
    animation_ids.push_back(animation_id);
    ++totals_.animations;

    for (std::size_t t = 0; t < animation.tracks.size(); ++t) {
      const auto& track = animation.tracks[t];
      insert_track_.bind(parameter(kBoneTracks, "animation_id"), animation_id);
      insert_track_.bind(parameter(kBoneTracks, "track_index"), static_cast<std::int64_t>(t));
      bind_optional(insert_track_, parameter(kBoneTracks, "bone_id"), track.bone_id);
      const auto& bone_name = animation_row.tracks[t].bone_name;  // text bound without a copy: it outlives the step
      if (bone_name) insert_track_.bindNoCopy(parameter(kBoneTracks, "bone_name"), *bone_name);
      else insert_track_.bind(parameter(kBoneTracks, "bone_name"));
      insert_track_.bind(parameter(kBoneTracks, "flags"), static_cast<std::int64_t>(track.flags));
      insert_track_.bind(parameter(kBoneTracks, "track_flags"), static_cast<std::int64_t>(track.track_flags));
      insert_track_.bindNoCopy(parameter(kBoneTracks, "channels"), track.channels);
      insert_track_.bindNoCopy(parameter(kBoneTracks, "value_encoding"), track.value_encoding);
      insert_track_.bind(parameter(kBoneTracks, "key_count"), animation_row.tracks[t].key_count);
      insert_track_.bind(parameter(kBoneTracks, "total_time"), animation_row.tracks[t].total_time);
      insert_track_.bindNoCopy(parameter(kBoneTracks, "content_hash"), animation_row.tracks[t].content_hash.c_str());
      // Keys released in the parallel stage for another layout than this writer's would be lost
      // silently: a caller's error, said at once.
      const bool needs_keys = key_storage_ == KeyStorage::rows ||
                              (key_storage_ == KeyStorage::blob && animation_row.tracks[t].keys_end == 0);
      if (needs_keys && track.keys.size() != static_cast<std::size_t>(animation_row.tracks[t].key_count))
        throw std::logic_error(fmt::format("{}: the rows lack the keys this writer's layout ({}) stores", file.path,
                                           key_storage_name(key_storage_)));
      // Encoded in the parallel stage; rows made without it (another caller's options) are encoded here.
      ByteBuffer encoded_here;
      auto blob = file.keys_blob(animation_row.tracks[t]);
      if (key_storage_ == KeyStorage::blob && blob.empty()) {
        encoded_here = model::encode_key_blob(track.keys, track.splines);
        blob = encoded_here;
      }
      if (key_storage_ == KeyStorage::blob) insert_track_.bindNoCopy(parameter(kBoneTracks, "keys"), blob.data(), static_cast<int>(blob.size()));
      else insert_track_.bind(parameter(kBoneTracks, "keys"));
      run(insert_track_);
      const std::int64_t track_id = db_.getLastInsertRowid();
      ++totals_.tracks;

      totals_.keys += animation_row.tracks[t].key_count;
      // The hot loop (millions of rows): the raw statement, without SQLiteCpp's per-call checks.
      sqlite3_stmt* key_statement = insert_key_.get();
      const bool rows = key_storage_ == KeyStorage::rows;
      const bool float32 = model::float32_values(track.value_encoding);
      for (std::size_t k = 0; rows && k < track.keys.size(); ++k) {
        const auto& key = track.keys[k];
        sqlite3_bind_int64(key_statement, parameter(kKeyframeRows, "track_id"), track_id);
        sqlite3_bind_int64(key_statement, parameter(kKeyframeRows, "key_index"), static_cast<sqlite3_int64>(k));
        sqlite3_bind_double(key_statement, parameter(kKeyframeRows, "time"), float32 ? as_stored(key.time) : key.time);
        bind_raw(key_statement, parameter(kKeyframeRows, "frame"), key.frame);
        bind_raw(key_statement, parameter(kKeyframeRows, "x"), key.x, float32);
        bind_raw(key_statement, parameter(kKeyframeRows, "y"), key.y, float32);
        bind_raw(key_statement, parameter(kKeyframeRows, "z"), key.z, float32);
        bind_raw(key_statement, parameter(kKeyframeRows, "w"), key.w, float32);
        step_raw(db_, key_statement);
      }
      if (track.behaviors) {
        insert_behaviors_.bind(parameter(kTrackBehaviors, "track_id"), track_id);
        insert_behaviors_.bind(parameter(kTrackBehaviors, "pre_behavior"), track.behaviors->pre);
        insert_behaviors_.bind(parameter(kTrackBehaviors, "post_behavior"), track.behaviors->post);
        run(insert_behaviors_);
      }
      for (std::size_t k = 0; rows && k < track.splines.size(); ++k) {
        const auto& spline = track.splines[k];
        insert_spline_.bind(parameter(kKeySplineRows, "track_id"), track_id);
        insert_spline_.bind(parameter(kKeySplineRows, "key_index"), static_cast<std::int64_t>(k));
        insert_spline_.bind(parameter(kKeySplineRows, "shape"), spline.shape);
        bind_optional(insert_spline_, parameter(kKeySplineRows, "linear_flag"), spline.linear_flag);
        for (std::size_t p = 0; p < spline.params.size(); ++p)
          insert_spline_.bind(parameter(kKeySplineRows, "p1") + static_cast<int>(p), spline.params[p]);
        run(insert_spline_);
      }
    }
  }
  for (const auto& row : file.model.format_rows) write_format_row(row, file_id, animation_ids);
}

SQLite::Statement& DumpWriter::format_statement(const model::FormatRow& row) {
  std::vector<std::string_view> columns{row.animation ? "animation_id" : "file_id"};
  std::string key = fmt::format("{}({}", row.table, columns.front());
  for (const auto& [column, value] : row.columns) {
    columns.push_back(column);
    key += fmt::format(",{}", column);
  }
  if (const auto found = format_statements_.find(key); found != format_statements_.end()) return *found->second;
  // Prepared before it is cached: a statement that fails to prepare leaves no empty entry behind.
  auto statement = std::make_unique<SQLite::Statement>(db_, insert_sql(row.table, columns));
  return *format_statements_.emplace(std::move(key), std::move(statement)).first->second;
}

void DumpWriter::write_format_row(const model::FormatRow& row, std::int64_t file_id,
                                  const std::vector<std::int64_t>& animation_ids) {
  SQLite::Statement& statement = format_statement(row);
  if (row.animation) statement.bind(":animation_id", animation_ids.at(*row.animation));
  else statement.bind(":file_id", file_id);
  for (const auto& [column, value] : row.columns) {
    const std::string name = fmt::format(":{}", column);
    std::visit([&](const auto& held) {
      using T = std::decay_t<decltype(held)>;
      if constexpr (std::is_same_v<T, double>) statement.bind(name, as_stored(held));
      else if constexpr (std::is_same_v<T, model::ExactNumber>) statement.bind(name, held.value);
      else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::string>)
        statement.bind(name, held);
      else if constexpr (std::is_same_v<T, model::AnimationRef>) statement.bind(name, animation_ids.at(held.animation));
      else statement.bind(name);  // NULL; a MotionNameOf is resolved to text before it gets here
    }, value);
  }
  run(statement);
}

void DumpWriter::write_warning(const WalkWarning& warning) {
  release_batch();  // a batch written again would lose it
  add_warning(warning);
}

void DumpWriter::add_warning(const WalkWarning& warning) {
  insert_warning_.bind(parameter(kScanWarnings, "dump_id"), dump_id_);
  insert_warning_.bind(parameter(kScanWarnings, "path"), warning.relative_path);
  insert_warning_.bind(parameter(kScanWarnings, "message"), warning.message);
  run(insert_warning_);
}

void DumpWriter::finish() {
  release_batch();
  for (const auto& [path, previous] : previous_)
    if (!kept_.count(previous.id)) {
      remove_file(previous, path);
      ++totals_.removed;
    }
  SQLite::Statement stamp(db_, "UPDATE dumps SET indexed_at = ?, file_count = ?, error_count = ? WHERE id = ?");
  stamp.bind(1, utc_now_iso8601());
  stamp.bind(2, totals_.files);
  stamp.bind(3, totals_.errors);
  stamp.bind(4, dump_id_);
  stamp.exec();
  if (mode_ != WriteMode::checked) build_deferred_indexes(db_);
  // The post-index steps read only the dump's own rows: when no file was parsed or removed, what
  // they wrote last time stands (an unchanged re-index stays a fraction of a first index). A new
  // build has a new build id, which makes every file parsed again, so a changed step still runs.
  if (totals_.parsed > 0 || totals_.removed > 0) run_after_index(db_, dump_id_, changes_);
  transaction_->commit();
  totals_.single_file = leave_wal_mode(db_);
}

}  // namespace animdex
