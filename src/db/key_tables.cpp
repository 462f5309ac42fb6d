// The virtual-table module `animdex_keys` (see key_tables.h). Built twice: into animdex (with
// SQLITE_CORE, calling SQLite directly) and as the loadable extension `animdex_keys.so` (without
// it, calling SQLite through the routines the loader hands over).
#include "db/key_tables.h"

#include "core/number_text.h"

#ifdef ANIMDEX_KEY_TABLES_IN_CORE
#define SQLITE_CORE 1  // before sqlite3ext.h: direct calls instead of the loader's routines
#endif
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <string>

#include "db/key_blob.h"
#include "model/animation.h"

namespace {

using animdex::model::KeyBlob;
using Column = animdex::model::KeyBlobColumn;

enum class Kind { keyframes, key_splines };

constexpr const char* kKeyframesColumns =
    "CREATE TABLE x(track_id INTEGER, key_index INTEGER, time REAL, frame INTEGER, x REAL, y REAL, z REAL, w REAL)";
constexpr const char* kSplinesColumns =
    "CREATE TABLE x(track_id INTEGER, key_index INTEGER, shape INTEGER, linear_flag INTEGER, p1 REAL, p2 REAL, "
    "p3 REAL, p4 REAL, p5 REAL, p6 REAL)";

struct KeyTable {
  sqlite3_vtab base{};  // first: SQLite sees a sqlite3_vtab*
  sqlite3* db = nullptr;
  std::string schema;   // the database the table lives in ("main", or an attached one's name)
  Kind kind = Kind::keyframes;
};

// Reads tracks in id order and, for each, its keys from the blob or from the rows table.
struct KeyCursor {
  sqlite3_vtab_cursor base{};
  KeyTable* table = nullptr;
  sqlite3_stmt* tracks = nullptr;  // the one of the two below this scan reads: id, keys of its tracks
  sqlite3_stmt* one_track = nullptr;
  sqlite3_stmt* all_tracks = nullptr;
  sqlite3_stmt* rows = nullptr;    // a `--keyframes rows` track's rows: one of the two below
  sqlite3_stmt* all_rows = nullptr;
  sqlite3_stmt* one_row = nullptr;
  std::optional<std::int64_t> only_key;  // `key_index = ?`: the one key of each track to give
  bool at_end = true;
  std::int64_t track_id = 0;
  std::optional<KeyBlob> blob;     // points into `tracks`' current row, valid until it steps
  std::uint64_t key = 0;
  bool on_rows = false;            // the current row comes from `rows`
  bool float32 = true;             // the track's values are float32s (model::float32_values)
  sqlite3_int64 row_number = 0;    // the rowid: unique within one scan

  ~KeyCursor() {
    sqlite3_finalize(one_track);
    sqlite3_finalize(all_tracks);
    sqlite3_finalize(all_rows);
    sqlite3_finalize(one_row);
  }
};

std::string quoted(const std::string& name) {
  std::string out = "\"";
  for (const char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

int fail(sqlite3_vtab* table, const std::string& message) {
  sqlite3_free(table->zErrMsg);
  table->zErrMsg = sqlite3_mprintf("%s", message.c_str());
  return SQLITE_ERROR;
}

int connect(sqlite3* db, void*, int argc, const char* const* argv, sqlite3_vtab** out, char** error) {
  const std::string argument = argc > 3 ? argv[3] : "";
  Kind kind;
  if (argument == "keyframes") kind = Kind::keyframes;
  else if (argument == "key_splines") kind = Kind::key_splines;
  else {
    *error = sqlite3_mprintf("animdex_keys: the argument is keyframes or key_splines, not '%s'", argument.c_str());
    return SQLITE_ERROR;
  }
  const int declared = sqlite3_declare_vtab(db, kind == Kind::keyframes ? kKeyframesColumns : kSplinesColumns);
  if (declared != SQLITE_OK) return declared;
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  auto* table = new (std::nothrow) KeyTable;
  if (!table) return SQLITE_NOMEM;
  table->db = db;
  table->schema = argv[1];
  table->kind = kind;
  *out = &table->base;
  return SQLITE_OK;
}

int disconnect(sqlite3_vtab* base) {
  delete reinterpret_cast<KeyTable*>(base);
  return SQLITE_OK;
}

// idxNum bit 1: one track (`track_id = ?`, also each value of an IN list); bit 2: one key
// (`key_index = ?`, as a join key by key asks). Neither: every track.
constexpr int kOneTrack = 1, kOneKey = 2;

int best_index(sqlite3_vtab*, sqlite3_index_info* info) {
  info->idxNum = 0;
  int track = -1, key = -1;
  for (int c = 0; c < info->nConstraint; ++c) {
    const auto& constraint = info->aConstraint[c];
    if (!constraint.usable || constraint.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (constraint.iColumn == 0 && track < 0) track = c;
    if (constraint.iColumn == 1 && key < 0) key = c;
  }
  int argument = 0;
  if (track >= 0) {
    info->idxNum |= kOneTrack;
    info->aConstraintUsage[track].argvIndex = ++argument;
    info->aConstraintUsage[track].omit = 1;
  }
  if (key >= 0) {  // SQLite checks it again (omit 0): a key index that is not an integer reads the track
    info->idxNum |= kOneKey;
    info->aConstraintUsage[key].argvIndex = ++argument;
  }
  info->estimatedCost = track >= 0 ? (key >= 0 ? 5 : 20) : 1e9;
  info->estimatedRows = track >= 0 ? (key >= 0 ? 1 : 50) : 100'000'000;
  // Rows come by track id, then key index: an ORDER BY of those, ascending, needs no sort.
  bool ordered = info->nOrderBy <= 2;
  for (int o = 0; ordered && o < info->nOrderBy; ++o)
    ordered = info->aOrderBy[o].iColumn == o && !info->aOrderBy[o].desc;
  info->orderByConsumed = ordered && info->nOrderBy > 0;
  return SQLITE_OK;
}

int open_cursor(sqlite3_vtab* base, sqlite3_vtab_cursor** out) {
  auto* cursor = new (std::nothrow) KeyCursor;
  if (!cursor) return SQLITE_NOMEM;
  cursor->table = reinterpret_cast<KeyTable*>(base);
  *out = &cursor->base;
  return SQLITE_OK;
}

int close_cursor(sqlite3_vtab_cursor* base) {
  delete reinterpret_cast<KeyCursor*>(base);
  return SQLITE_OK;
}

KeyCursor& cursor_of(sqlite3_vtab_cursor* base) { return *reinterpret_cast<KeyCursor*>(base); }

// Prepared once per cursor: a join calls xFilter once per track.
int prepare(KeyCursor& cursor, const std::string& sql, sqlite3_stmt** statement) {
  if (*statement) {
    sqlite3_reset(*statement);  // a previous step's error was reported then
    return SQLITE_OK;
  }
  const int rc = sqlite3_prepare_v2(cursor.table->db, sql.c_str(), -1, statement, nullptr);
  if (rc != SQLITE_OK) return fail(&cursor.table->base, sqlite3_errmsg(cursor.table->db));
  return SQLITE_OK;
}

// Whether the current blob has a row at `key` (key_splines: only blobs with splines have rows).
bool blob_has_row(const KeyCursor& cursor) {
  if (!cursor.blob || cursor.key >= cursor.blob->key_count()) return false;
  if (cursor.only_key && static_cast<std::int64_t>(cursor.key) != *cursor.only_key) return false;
  return cursor.table->kind == Kind::keyframes || cursor.blob->has_splines();
}

// Moves to the next track that has a row to give, opening its blob or its rows.
int next_track(KeyCursor& cursor) {
  KeyTable& table = *cursor.table;
  while (true) {
    cursor.blob.reset();
    cursor.on_rows = false;
    const int rc = sqlite3_step(cursor.tracks);
    if (rc == SQLITE_DONE) {
      cursor.at_end = true;
      return SQLITE_OK;
    }
    if (rc != SQLITE_ROW) return fail(&table.base, sqlite3_errmsg(table.db));
    cursor.track_id = sqlite3_column_int64(cursor.tracks, 0);
    const auto* encoding = reinterpret_cast<const char*>(sqlite3_column_text(cursor.tracks, 2));
    cursor.float32 = encoding && animdex::model::float32_values(encoding);
    cursor.key = cursor.only_key && *cursor.only_key >= 0 ? static_cast<std::uint64_t>(*cursor.only_key) : 0;
    if (sqlite3_column_type(cursor.tracks, 1) == SQLITE_BLOB) {
      const auto* data = static_cast<const std::byte*>(sqlite3_column_blob(cursor.tracks, 1));
      const auto size = static_cast<std::size_t>(sqlite3_column_bytes(cursor.tracks, 1));
      auto opened = KeyBlob::open(std::span<const std::byte>(data, size));
      if (!opened)
        return fail(&table.base, "bone_tracks.keys of track " + std::to_string(cursor.track_id) + ": " +
                                     opened.error().message());
      cursor.blob = opened.value();
      if (blob_has_row(cursor)) return SQLITE_OK;
      continue;
    }
    sqlite3_reset(cursor.rows);
    sqlite3_bind_int64(cursor.rows, 1, cursor.track_id);
    if (cursor.only_key) sqlite3_bind_int64(cursor.rows, 2, *cursor.only_key);
    const int row = sqlite3_step(cursor.rows);
    if (row == SQLITE_ROW) {
      cursor.on_rows = true;
      return SQLITE_OK;
    }
    if (row != SQLITE_DONE) return fail(&table.base, sqlite3_errmsg(table.db));
  }
}

int filter(sqlite3_vtab_cursor* base, int index_number, const char*, int argc, sqlite3_value** argv) {
  KeyCursor& cursor = cursor_of(base);
  const KeyTable& table = *cursor.table;
  const std::string schema = quoted(table.schema);
  const bool one_track = (index_number & kOneTrack) && argc >= 1;
  sqlite3_value* key_value = (index_number & kOneKey) && argc > (one_track ? 1 : 0) ? argv[one_track ? 1 : 0] : nullptr;
  cursor.only_key.reset();
  if (key_value && sqlite3_value_type(key_value) == SQLITE_INTEGER) cursor.only_key = sqlite3_value_int64(key_value);
  const std::string tracks_sql =
      "SELECT id, keys, value_encoding FROM " + schema + ".bone_tracks" + (one_track ? " WHERE id = ?" : " ORDER BY id");
  const std::string rows_sql =
      (table.kind == Kind::keyframes
           ? "SELECT key_index, time, frame, x, y, z, w FROM " + schema + ".keyframe_rows WHERE track_id = ?"
           : "SELECT key_index, shape, linear_flag, p1, p2, p3, p4, p5, p6 FROM " + schema +
                 ".key_spline_rows WHERE track_id = ?") +
      (cursor.only_key ? " AND key_index = ?" : " ORDER BY key_index");
  sqlite3_stmt** tracks = one_track ? &cursor.one_track : &cursor.all_tracks;
  sqlite3_stmt** rows = cursor.only_key ? &cursor.one_row : &cursor.all_rows;
  if (int rc = prepare(cursor, tracks_sql, tracks); rc != SQLITE_OK) return rc;
  if (int rc = prepare(cursor, rows_sql, rows); rc != SQLITE_OK) return rc;
  cursor.tracks = *tracks;
  cursor.rows = *rows;
  if (one_track) sqlite3_bind_value(cursor.tracks, 1, argv[0]);
  cursor.at_end = false;
  cursor.row_number = 0;
  return next_track(cursor);
}

int next(sqlite3_vtab_cursor* base) {
  KeyCursor& cursor = cursor_of(base);
  ++cursor.row_number;
  if (cursor.on_rows) {
    const int rc = sqlite3_step(cursor.rows);
    if (rc == SQLITE_ROW) return SQLITE_OK;
    if (rc != SQLITE_DONE) return fail(&cursor.table->base, sqlite3_errmsg(cursor.table->db));
    return next_track(cursor);
  }
  ++cursor.key;  // past the one key asked for, blob_has_row() is false
  return blob_has_row(cursor) ? SQLITE_OK : next_track(cursor);
}

int eof(sqlite3_vtab_cursor* base) { return cursor_of(base).at_end ? 1 : 0; }

// The number rule as the writer applies it: float32 data shown as float32s, other numbers as they are.
void result_real(sqlite3_context* context, const std::optional<double>& value, bool float32) {
  if (value) sqlite3_result_double(context, float32 ? animdex::as_stored(*value) : *value);
  else sqlite3_result_null(context);
}

void result_integer(sqlite3_context* context, const std::optional<std::int64_t>& value) {
  if (value) sqlite3_result_int64(context, *value);
  else sqlite3_result_null(context);
}

// Columns 2.. of a blob row: keyframes time, frame, x, y, z, w; key_splines shape, linear_flag, p1..p6.
void blob_column(const KeyCursor& cursor, sqlite3_context* context, int column) {
  const KeyBlob& blob = *cursor.blob;
  static constexpr Column kKeyframeColumns[] = {Column::time, Column::frame, Column::x, Column::y, Column::z, Column::w};
  static constexpr Column kSplineColumns[] = {Column::shape, Column::linear_flag, Column::p1, Column::p2,
                                              Column::p3, Column::p4, Column::p5, Column::p6};
  const bool keyframes = cursor.table->kind == Kind::keyframes;
  const Column which = keyframes ? kKeyframeColumns[column - 2] : kSplineColumns[column - 2];
  const bool integer = which == Column::frame || which == Column::shape || which == Column::linear_flag;
  if (integer) result_integer(context, blob.integer_or_null(which, cursor.key));
  else result_real(context, blob.real_or_null(which, cursor.key), cursor.float32);
}

int column(sqlite3_vtab_cursor* base, sqlite3_context* context, int index) {
  const KeyCursor& cursor = cursor_of(base);
  if (index == 0) sqlite3_result_int64(context, cursor.track_id);
  else if (cursor.on_rows && sqlite3_column_type(cursor.rows, index - 1) == SQLITE_FLOAT)
    result_real(context, sqlite3_column_double(cursor.rows, index - 1), cursor.float32);  // rows written before v11 too
  else if (cursor.on_rows) sqlite3_result_value(context, sqlite3_column_value(cursor.rows, index - 1));
  else if (index == 1) sqlite3_result_int64(context, static_cast<sqlite3_int64>(cursor.key));
  else blob_column(cursor, context, index);
  return SQLITE_OK;
}

int rowid(sqlite3_vtab_cursor* base, sqlite3_int64* out) {
  *out = cursor_of(base).row_number;
  return SQLITE_OK;
}

sqlite3_module make_module() {
  sqlite3_module module{};
  module.iVersion = 1;
  module.xCreate = connect;  // nothing to create: the data is in bone_tracks and the rows tables
  module.xConnect = connect;
  module.xBestIndex = best_index;
  module.xDisconnect = disconnect;
  module.xDestroy = disconnect;
  module.xOpen = open_cursor;
  module.xClose = close_cursor;
  module.xFilter = filter;
  module.xNext = next;
  module.xEof = eof;
  module.xColumn = column;
  module.xRowid = rowid;
  return module;
}

const sqlite3_module kModule = make_module();

}  // namespace

// The entry point SQLite's loader looks for in `animdex_keys.so`.
extern "C" int sqlite3_animdexkeys_init(sqlite3* db, char**, const sqlite3_api_routines* api) {
  SQLITE_EXTENSION_INIT2(api);
  return sqlite3_create_module(db, "animdex_keys", &kModule, nullptr);
}

#ifdef SQLITE_CORE
namespace animdex {

void enable_key_tables() {
  static std::once_flag once;
  std::call_once(once, [] {
    sqlite3_auto_extension(reinterpret_cast<void (*)()>(sqlite3_animdexkeys_init));
  });
}

}  // namespace animdex
#endif
