#include "db/database.h"

#include "containers/container_registry.h"
#include "core/number_text.h"
#include "db/key_tables.h"
#include "db/query_catalog.h"

#include "formats/registry.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <atomic>
#include <cstring>
#include <fcntl.h>
#include <thread>
#include <unistd.h>
#include <fmt/format.h>
#include <sqlite3.h>

#include "core/content_hash.h"
#include "core/embedded.h"
#include "core/terminal_text.h"
#include "db/sqlite_memory.h"

namespace animdex {

namespace {

// Every connection, reader or writer: a database file may come from anyone (a download, a mod
// pack), so nothing in it may run code or reach past SQLite. Defensive mode refuses writes that
// corrupt on purpose (writable_schema, journal_mode=OFF); an untrusted schema may call only
// innocuous functions (so a view or trigger cannot call fts3_tokenizer or load_extension); the
// fts3 tokenizer pointer interface and extension loading are off; a value longer than any the
// indexer writes is an error (SQLITE_TOOBIG), not gigabytes of copies.
void harden(sqlite3* handle) {
  sqlite3_db_config(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(handle, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(handle, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, nullptr);
  sqlite3_db_config(handle, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, kMaxValueBytes);
  sqlite3_limit(handle, SQLITE_LIMIT_SQL_LENGTH, kMaxSqlBytes);
}

// The read deadline (steady clock, in ns since its epoch; 0: none) the progress handler holds
// every reader's statements to.
std::atomic<std::int64_t> read_deadline_ns{0};
std::atomic<std::int64_t> read_budget_ms{0};

std::int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Non-zero interrupts the statement (SQLITE_INTERRUPT): a hostile view (a recursive CTE with no
// end) or a query over a whole game cannot hold a reader past its budget.
int past_read_deadline(void*) {
  const auto deadline = read_deadline_ns.load(std::memory_order_relaxed);
  return deadline != 0 && steady_now_ns() > deadline ? 1 : 0;
}

int pragma_int(SQLite::Database& db, const char* pragma) {
  return db.execAndGet(fmt::format("PRAGMA {}", pragma)).getInt();
}

bool has_user_tables(SQLite::Database& db) {
  return db.execAndGet("SELECT COUNT(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").getInt() > 0;
}

// Refuses files that are not ours or are newer than this build understands.
void check_identity(SQLite::Database& db, const std::filesystem::path& path, bool allow_empty) {
  const int application_id = pragma_int(db, "application_id");
  const int version = pragma_int(db, "user_version");
  if (application_id != kApplicationId) {
    if (allow_empty && application_id == 0 && !has_user_tables(db)) return;
    throw DatabaseError(fmt::format("{} is not an animdex database (application_id 0x{:08X})", path.string(),
                                    static_cast<unsigned>(application_id)));
  }
  if (version > kSchemaVersion)
    throw DatabaseError(fmt::format("{} has schema version {}, newer than this animdex understands ({}); "
                                    "use a newer animdex",
                                    path.string(), version, kSchemaVersion));
}

struct SchemaObject {
  std::string table, sql;
  // A table's columns ("name type pk hidden": hidden marks generated columns) and foreign keys
  // ("from -> table.to on delete ACTION"), sorted: a migration's ADD COLUMN appends, so a
  // migrated table's text differs from a new one's while these agree.
  std::vector<std::string> columns, foreign_keys;
};
// By type and name: a trigger may share a name with a table, view or index (its own namespace).
using SchemaObjects = std::map<std::pair<std::string, std::string>, SchemaObject>;

std::vector<std::string> sorted_rows(SQLite::Database& db, const std::string& sql, const std::string& table) {
  SQLite::Statement rows(db, sql);
  rows.bind(1, table);
  std::vector<std::string> lines;
  while (rows.executeStep()) lines.push_back(rows.getColumn(0).getString());
  std::sort(lines.begin(), lines.end());
  return lines;
}

SchemaObjects schema_objects(SQLite::Database& db, std::string_view schema) {
  SchemaObjects objects;
  SQLite::Statement rows(db, fmt::format("SELECT type, name, tbl_name, sql FROM {}.sqlite_schema", schema));
  while (rows.executeStep()) {
    auto& object = objects[{rows.getColumn(0).getString(), rows.getColumn(1).getString()}];
    object.table = rows.getColumn(2).getString();
    object.sql = rows.getColumn(3).getString();
  }
  for (auto& [key, object] : objects) {
    if (key.first != "table" || key.second.starts_with("sqlite_") || object.sql.starts_with("CREATE VIRTUAL")) continue;
    object.columns = sorted_rows(
        db, fmt::format("SELECT name || ' ' || upper(type) || ' ' || pk || ' ' || hidden FROM pragma_table_xinfo(?, '{}')", schema),
        key.second);
    object.foreign_keys = sorted_rows(
        db, fmt::format("SELECT \"from\" || ' -> ' || \"table\" || '.' || ifnull(\"to\", '') || ' on delete ' || on_delete "
                        "FROM pragma_foreign_key_list(?, '{}')", schema),
        key.second);
  }
  return objects;
}

// What this build declares: schema_ddl() run on an empty database in memory, once a process.
const SchemaObjects& declared_objects() {
  static const SchemaObjects objects = [] {
    enable_key_tables();
    SQLite::Database memory(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    memory.exec(schema_ddl());
    return schema_objects(memory, "main");
  }();
  return objects;
}

// SQLite's own objects: made by SQLite for a declared table (autoindexes, AUTOINCREMENT's
// counters) or by ANALYZE. None of them holds code.
bool is_sqlite_internal(const std::pair<std::string, std::string>& key, const SchemaObject& object) {
  const auto& [type, name] = key;
  if (type == "index") return name.starts_with("sqlite_autoindex_") && object.sql.empty();
  return type == "table" && (name == "sqlite_sequence" || name == "sqlite_stat1" || name == "sqlite_stat4");
}

// Why `object` is not the declared one, or empty when it is. Code-bearing objects (views,
// triggers, indexes, virtual tables) must match the declaration to the letter; tables by their
// columns and foreign keys.
std::string schema_difference(const std::string& type, const std::string& name, const SchemaObject& object,
                              const SchemaObject& expected) {
  if (expected.table != object.table)
    return fmt::format("holds {} {} on table {}, where animdex declares it on {}", type, name, object.table,
                       expected.table);
  const bool is_virtual = object.sql.starts_with("CREATE VIRTUAL") || expected.sql.starts_with("CREATE VIRTUAL");
  if ((type != "table" || is_virtual) && expected.sql != object.sql)
    return fmt::format("holds {} {}, which differs from the one animdex declares", type, name);
  if (expected.columns != object.columns)
    return fmt::format("holds table {}, whose columns differ from the ones animdex declares", name);
  if (expected.foreign_keys != object.foreign_keys)
    return fmt::format("holds table {}, whose references differ from the ones animdex declares", name);
  return {};
}

// Refuses a database holding a schema object this build does not declare, or a declared one
// changed: a trigger would run during `index` (deleting a dump's rows, failing every insert), a
// view redefined (`dumps` as a recursive view) would run for every reader. A declared object
// that is missing is not refused here: the DDL creates it for a writer; a reader's query says so.
// CHECK constraints are not compared (no pragma lists them; a migrated table's text differs from a
// new one's): one can only refuse rows, which the writer reports (indexer/db_writer.cpp).
void check_schema_objects(SQLite::Database& db, const std::filesystem::path& path, std::string_view schema) {
  const auto& declared = declared_objects();
  for (const auto& [key, object] : schema_objects(db, schema)) {
    if (is_sqlite_internal(key, object)) continue;
    const auto& [type, name] = key;
    const auto expected = declared.find(key);
    const std::string problem = expected == declared.end()
                                    ? fmt::format("holds {} {}, which animdex does not declare", type, name)
                                    : schema_difference(type, name, object, expected->second);
    if (!problem.empty())
      throw DatabaseError(fmt::format("{} {}: it was changed outside animdex, so it is not opened (nothing in it "
                                      "runs); index into a new database",
                                      terminal_safe(path.string()), terminal_safe(problem)));
  }
}

std::string_view embedded_or_throw(std::string_view path) {
  const auto content = embedded_file(path);
  if (!content) throw DatabaseError(fmt::format("{} is not embedded in this build", path));
  return *content;
}

// `animdex_as_stored(x)` in SQL: the number rule (core/number_text.h), for migrations that rewrite
// values stored before it (011). NULL and non-numbers pass through.
void as_stored_function(sqlite3_context* context, int, sqlite3_value** arguments) {
  if (sqlite3_value_type(arguments[0]) == SQLITE_FLOAT) sqlite3_result_double(context, as_stored(sqlite3_value_double(arguments[0])));
  else sqlite3_result_value(context, arguments[0]);
}

// `animdex_exact_of_stored(x)` in SQL: the exact value a stored float32-rule number came from, for
// migration 016 (DS fixed point). NULL and non-numbers pass through.
void exact_of_stored_function(sqlite3_context* context, int, sqlite3_value** arguments) {
  if (sqlite3_value_type(arguments[0]) == SQLITE_FLOAT)
    sqlite3_result_double(context, exact_of_stored(sqlite3_value_double(arguments[0])));
  else sqlite3_result_value(context, arguments[0]);
}

// Brings an existing database from `from_version` up to kSchemaVersion in one transaction,
// running schema/migrations/NNN_*.sql for every NNN above `from_version`, in order.
void migrate(SQLite::Database& db, int from_version) {
  sqlite3_create_function(db.getHandle(), "animdex_as_stored", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                          &as_stored_function, nullptr, nullptr);
  sqlite3_create_function(db.getHandle(), "animdex_exact_of_stored", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                          &exact_of_stored_function, nullptr, nullptr);
  std::vector<std::pair<int, std::string_view>> steps;
  for (const auto& file : embedded_files()) {
    constexpr std::string_view folder = "schema/migrations/";
    if (file.path.substr(0, folder.size()) != folder) continue;
    const int target = std::atoi(std::string(file.path.substr(folder.size(), 3)).c_str());
    if (target > from_version && target <= kSchemaVersion) steps.emplace_back(target, file.content);
  }
  std::sort(steps.begin(), steps.end());
  if (steps.empty() || steps.back().first != kSchemaVersion || steps.front().first != from_version + 1)
    throw DatabaseError(fmt::format("no migration path from schema version {} to {}", from_version, kSchemaVersion));
  // Foreign keys off while tables are rebuilt (SQLite's documented procedure: dropping a rebuilt
  // table must not cascade), checked before commit, and on again whatever happens.
  db.exec("PRAGMA foreign_keys = OFF");
  struct ForeignKeysBackOn {
    SQLite::Database& db;
    ~ForeignKeysBackOn() {
      try {
        db.exec("PRAGMA foreign_keys = ON");
      } catch (const SQLite::Exception&) {  // a destructor must not throw; the connection is closing anyway
      }
    }
  } back_on{db};
  // The write lock first, then the version again: two `index` runs must not both migrate.
  SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
  if (pragma_int(db, "user_version") != from_version) return;  // the other run migrated it meanwhile
  for (const auto& [target, sql] : steps) {
    db.exec(std::string(sql));
    db.exec(fmt::format("PRAGMA user_version = {}", target));
  }
  db.exec(schema_ddl());
  SQLite::Statement broken(db, "PRAGMA foreign_key_check");
  if (broken.executeStep())
    throw DatabaseError(fmt::format("migration left a row of {} pointing at a missing row; nothing was changed",
                                    broken.getColumn(0).getString()));
  transaction.commit();
}

std::string file_uri(const std::filesystem::path& path, std::string_view query) {
  std::string uri = "file:";
  for (const unsigned char c : std::filesystem::absolute(path).string()) {
    if (std::isalnum(c) || std::strchr("/._-~", c)) uri += static_cast<char>(c);
    else uri += fmt::format("%{:02X}", static_cast<unsigned>(c));
  }
  return uri + "?" + std::string(query);
}

SQLite::Database open_uri(const std::filesystem::path& path, std::string_view query) {
  enable_key_tables();
  SQLite::Database db(file_uri(path, query), SQLite::OPEN_READONLY | SQLite::OPEN_URI);
  harden(db.getHandle());
  sqlite3_progress_handler(db.getHandle(), kProgressSteps, &past_read_deadline, nullptr);
  db.setBusyTimeout(10000);
  db.execAndGet("SELECT COUNT(*) FROM sqlite_schema");  // reads the header (and the WAL index)
  return db;
}

// mode=ro reads a DELETE-mode file anywhere and a WAL file whose folder we may write. A WAL file
// in a read-only folder (or whose -shm another user owns) opens only as immutable, which ignores
// the -wal file: so only when there is no -wal content that it would miss.
// After `mode=ro` failed: `immutable` when that is safe (the file cannot be written here and its
// -wal, if any, holds nothing), else why the file cannot be read; other errors as they were.
std::string immutable_fallback(const std::filesystem::path& path, const SQLite::Exception& error) {
  const int code = error.getErrorCode() & 0xFF;
  if (code != SQLITE_CANTOPEN && code != SQLITE_READONLY && code != SQLITE_PERM) throw error;
  std::error_code missing;
  // A write that died left its rollback journal, which we may not roll back here: immutable
  // would read the half-written pages.
  const auto journal_size = std::filesystem::file_size(path.string() + "-journal", missing);
  if (error.getExtendedErrorCode() == SQLITE_READONLY_ROLLBACK || (!missing && journal_size > 0))
    throw DatabaseError(fmt::format(
        "cannot open {} read-only: an index that was interrupted left {}-journal, which only its owner can "
        "roll back; ask them to run `animdex index` or `sqlite3 {} \"PRAGMA integrity_check\"` ({})",
        path.string(), path.string(), path.string(), error.what()));
  const auto wal_size = std::filesystem::file_size(path.string() + "-wal", missing);
  if (!missing && wal_size > 0)
    throw DatabaseError(fmt::format(
        "cannot open {} read-only: it has changes in {}-wal that only its owner can fold in (the folder is "
        "read-only to you); ask them to run `animdex index` or `sqlite3 {} \"PRAGMA wal_checkpoint\"` ({})",
        path.string(), path.string(), path.string(), error.what()));
  return "mode=ro&immutable=1";
}

// A reader waited its 10 s for a writer. The usual one: the first `animdex index` of a new
// database holds its file until it commits (rollback journal); later ones let readers in (WAL).
void throw_if_busy_for_reading(const SQLite::Exception& error, const std::filesystem::path& path) {
  if ((error.getErrorCode() & 0xFF) != SQLITE_BUSY) return;
  const std::string holder = describe_write_lock_holder(path);
  throw DatabaseError(fmt::format("{} is busy: {} is writing it (the first `animdex index` of a new database keeps "
                                  "readers out until it commits); try again when it has finished",
                                  path.string(), holder.empty() ? "another connection" : holder));
}

// The application_id in the file's header, read from the bytes: a file with a hot journal cannot
// be asked through SQLite without rolling the journal back first.
std::uint32_t stored_application_id(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  unsigned char bytes[4] = {};
  file.seekg(68);
  if (!file.read(reinterpret_cast<char*>(bytes), 4)) return 0;
  return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) | (std::uint32_t{bytes[2]} << 8) | bytes[3];
}

// A write that was killed leaves a hot rollback journal that a read-only connection cannot roll
// back. For an animdex database we may write, a moment's read-write connection rolls it back, as
// the sqlite3 shell would, so readers see the last complete state; anyone else's file is left alone.
bool rolled_back_hot_journal(const std::filesystem::path& path, const SQLite::Exception& error) {
  if (error.getExtendedErrorCode() != SQLITE_READONLY_ROLLBACK) return false;
  if (stored_application_id(path) != static_cast<std::uint32_t>(kApplicationId)) return false;
  try {
    SQLite::Database writer(path.string(), SQLite::OPEN_READWRITE);
    harden(writer.getHandle());
    writer.setBusyTimeout(10000);
    writer.execAndGet("SELECT COUNT(*) FROM sqlite_schema");
    return true;
  } catch (const SQLite::Exception& failure) {
    throw_if_busy_for_reading(failure, path);
    return false;  // not ours to write: immutable_fallback says why
  }
}

SQLite::Database open_without_writing(const std::filesystem::path& path) {
  try {
    return open_uri(path, "mode=ro");
  } catch (const SQLite::Exception& error) {
    if (rolled_back_hot_journal(path, error)) return open_uri(path, "mode=ro");
    return open_uri(path, immutable_fallback(path, error));
  }
}

SQLite::Database open_and_prepare(const std::filesystem::path& path, std::chrono::milliseconds busy_wait) {
  enable_key_tables();
  // One thread at a time uses the writer's connection (the pipeline's serial stage), so SQLite's
  // per-call connection mutex is off: with parse threads running, each bind paid for an atomic lock.
  SQLite::Database db(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_NOMUTEX);
  harden(db.getHandle());
  db.setBusyTimeout(static_cast<int>(std::min<std::int64_t>(busy_wait.count(), INT32_MAX)));
  check_identity(db, path, /*allow_empty=*/true);
  const int stored_version = pragma_int(db, "user_version");
  // Before anything is written: a foreign trigger would run on the writes. A database of an older
  // version is checked after its migration (its objects are the older build's), for triggers now.
  if (stored_version == kSchemaVersion) check_schema_objects(db, path, "main");
  else if (db.execAndGet("SELECT COUNT(*) FROM sqlite_schema WHERE type = 'trigger'").getInt() > 0)
    throw DatabaseError(fmt::format("{} holds a trigger, which animdex does not declare: it was changed outside "
                                    "animdex, so it is not opened (nothing in it runs); index into a new database",
                                    terminal_safe(path.string())));
  // Before WAL mode, which fixes it: only a new, empty file takes the page size.
  const bool fresh = !has_user_tables(db);
  if (fresh) db.exec(fmt::format("PRAGMA page_size = {}", kPageSize));
  // In rollback mode NORMAL may leave a corrupt file after a power cut; FULL costs a few syncs of
  // the small journal and the commit.
  db.exec(fresh ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
  // WAL lets readers see the previous dump while a re-index writes, at the price of writing every
  // page twice (into the -wal, then into the file). A new database has no previous dump to read,
  // so its first index keeps the rollback journal: every page is written once, and the journal
  // holds only the few pages of the empty schema. The next open for writing switches to WAL.
  if (!fresh) db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec(fmt::format("PRAGMA cache_size = {}", kWriterCacheSize));
  // Debian builds SQLite with secure_delete on: every deleted row's bytes are zeroed and every page
  // a delete frees is written, so a re-index that replaces a file wrote its old rows' pages once
  // more to the -wal. The rows are a game's animations, not secrets.
  db.exec("PRAGMA secure_delete = OFF");
  const int version = pragma_int(db, "user_version");
  // The DDL only creates what is missing, so it runs on every open for writing: a format's new
  // tables (or a new view) reach a database of the current version with the next `index`.
  // Changing an existing table needs a version and a migration.
  // In one transaction: outside one each statement is its own, with its syncs (116 fdatasyncs
  // for a new database, 4 this way).
  if (version == kSchemaVersion || version == 0) {
    SQLite::Transaction schema(db);
    db.exec(schema_ddl());
    if (version != kSchemaVersion) db.exec(fmt::format("PRAGMA user_version = {}", kSchemaVersion));
    schema.commit();
  } else if (version < kSchemaVersion) {
    migrate(db, version);
    db.exec(fmt::format("PRAGMA user_version = {}", kSchemaVersion));
  }
  if (version != kSchemaVersion && version != 0) check_schema_objects(db, path, "main");
  return db;
}

}  // namespace

void configure_sqlite_for_indexing() {
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  // Not SQLITE_CONFIG_STMTJRNL_SPILL: a statement journal kept in memory past the default 64 KiB
  // spills in writes the size of the threshold, and SQLite's Unix file layer keeps only the low 17
  // bits of a write's length, so a larger write comes up short and is reported as a full disk
  // (tests/indexer/incremental_index_test.cpp).
  // The page cache's arena: as many slots as the writer's cache holds, and a few for the other
  // connections `index` opens.
  give_sqlite_pages_an_arena(kPageSize, static_cast<std::size_t>(-kWriterCacheSize) * 1024 / kPageSize + 64);
}

void set_read_time_budget(std::chrono::milliseconds budget) {
  read_budget_ms.store(budget.count(), std::memory_order_relaxed);
  read_deadline_ns.store(budget.count() > 0 ? steady_now_ns() + budget.count() * 1'000'000 : 0,
                         std::memory_order_relaxed);
}

std::string value_too_big_text() {
  return fmt::format("the database holds a value longer than {} MiB, more than animdex ever writes (string or blob "
                     "too big); it was made or changed outside animdex",
                     kMaxValueBytes >> 20);
}

std::string read_time_budget_text() {
  return fmt::format("the reading took longer than its time budget ({:g} s; --timeout SECONDS gives another)",
                     static_cast<double>(read_budget_ms.load(std::memory_order_relaxed)) / 1000.0);
}

SQLite::Database open_for_writing(const std::filesystem::path& path, std::chrono::milliseconds busy_wait) {
  // Switching the journal mode needs the file to itself, and SQLite fails that at once (no busy
  // wait) while another writer holds it: so the whole open is retried until `busy_wait` is over.
  const auto deadline = std::chrono::steady_clock::now() + busy_wait;
  while (true) {
    try {
      return open_and_prepare(path, busy_wait);
    } catch (const SQLite::Exception& error) {
      const bool busy = (error.getErrorCode() & 0xFF) == SQLITE_BUSY;
      if (busy && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      throw_if_locked(error, path, busy_wait);
      throw DatabaseError(fmt::format("cannot open {} for writing: {}", path.string(), error.what()));
    }
  }
}

void throw_if_locked(const SQLite::Exception& error, const std::filesystem::path& path,
                     std::chrono::milliseconds waited) {
  if ((error.getErrorCode() & 0xFF) != SQLITE_BUSY) return;
  const std::string holder = describe_write_lock_holder(path);
  throw DatabaseError(fmt::format("{} is busy{}; waited {:g} s (--wait SECONDS waits longer)", path.string(),
                                  holder.empty() ? "" : ", held by " + holder,
                                  std::chrono::duration<double>(waited).count()));
}

bool leave_wal_mode(SQLite::Database& db) {
  db.setBusyTimeout(0);  // a reader holding the file open is not worth waiting for
  try {
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const std::string mode = db.execAndGet("PRAGMA journal_mode = DELETE").getString();
    return mode == "delete";
  } catch (const SQLite::Exception&) {
    return false;
  }
}

std::string describe_write_lock_holder(const std::filesystem::path& path) {
  // SQLite takes POSIX record locks: in WAL mode the writer holds byte 120 of the -shm file; in
  // rollback mode a writer holds the RESERVED byte (0x40000001) of the database and readers the
  // SHARED range after it. F_GETLK names a holder. Called only once we have given up: closing
  // these descriptors would drop this process's own locks on the files.
  const auto holder_of = [](const std::string& file, off_t offset, off_t length) -> pid_t {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return 0;
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = offset;
    lock.l_len = length;
    const bool asked = ::fcntl(fd, F_GETLK, &lock) == 0;
    ::close(fd);
    return asked && lock.l_type != F_UNLCK ? lock.l_pid : 0;
  };
  std::string role = "another writer";
  pid_t pid = holder_of(path.string() + "-shm", 120, 1);
  if (pid == 0) pid = holder_of(path.string(), 0x40000001, 1);
  if (pid == 0 && (pid = holder_of(path.string(), 0x40000002, 510)) != 0) role = "a reader";
  if (pid == 0) return {};
  std::string command;
  if (std::FILE* file = std::fopen(fmt::format("/proc/{}/cmdline", pid).c_str(), "rb")) {
    char buffer[256];
    const std::size_t got = std::fread(buffer, 1, sizeof buffer, file);
    std::fclose(file);
    for (std::size_t i = 0; i < got; ++i) command += buffer[i] == '\0' ? ' ' : buffer[i];
    while (!command.empty() && command.back() == ' ') command.pop_back();
  }
  command = terminal_safe(command);
  return command.empty() ? fmt::format("{}: process {}", role, pid) : fmt::format("{}: process {} ({})", role, pid, command);
}

void attach_read_only(SQLite::Database& db, const std::filesystem::path& path, std::string_view schema) {
  const auto attach = [&](std::string_view query) {
    SQLite::Statement statement(db, fmt::format("ATTACH DATABASE ? AS {}", schema));
    statement.bind(1, file_uri(path, query));
    statement.exec();
    db.execAndGet(fmt::format("SELECT COUNT(*) FROM {}.sqlite_schema", schema));  // reads the header now
  };
  try {
    attach("mode=ro");
  } catch (const SQLite::Exception& error) {  // as open_read_only: immutable where that is safe
    db.tryExec(fmt::format("DETACH DATABASE {}", schema));
    throw_if_busy_for_reading(error, path);
    if (rolled_back_hot_journal(path, error)) attach("mode=ro");
    else attach(immutable_fallback(path, error));
  }
  try {
    check_schema_objects(db, path, schema);
  } catch (const DatabaseError&) {
    db.tryExec(fmt::format("DETACH DATABASE {}", schema));
    throw;
  }
}

SQLite::Database open_read_only(const std::filesystem::path& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    throw QueryUsageError(fmt::format("{}: is a folder; --db takes a database file", path.string()));
  if (!std::filesystem::is_regular_file(path, ignored))
    throw DatabaseError(fmt::format("{}: no such database file", path.string()));
  try {
    SQLite::Database db = open_without_writing(path);
    check_identity(db, path, /*allow_empty=*/false);
    if (pragma_int(db, "user_version") < kSchemaVersion)
      throw DatabaseError(fmt::format("{} has schema version {}, older than {}; `animdex index` on it migrates it",
                                      path.string(), pragma_int(db, "user_version"), kSchemaVersion));
    check_schema_objects(db, path, "main");
    db.exec("PRAGMA query_only = ON");
    return db;
  } catch (const SQLite::Exception& error) {
    throw_if_busy_for_reading(error, path);
    throw DatabaseError(fmt::format("cannot open {}: {}", path.string(), error.what()));
  }
}

std::vector<std::string_view> format_table_files() {
  std::vector<std::string_view> paths;
  for (const auto& file : embedded_files())
    if (file.path.starts_with("src/formats/") && file.path.ends_with("_tables.sql")) paths.push_back(file.path);
  return paths;
}

std::string schema_ddl() {
  std::string ddl(embedded_or_throw("schema/schema.sql"));
  for (const auto path : format_table_files()) ddl += "\n" + std::string(embedded_or_throw(path));
  return ddl;
}

void run_after_index(SQLite::Database& db, std::int64_t dump_id, const std::vector<ChangedFile>& changes) {
  db.exec("CREATE TEMP TABLE IF NOT EXISTS indexing_dump(id INTEGER NOT NULL); DELETE FROM temp.indexing_dump;"
          "CREATE TEMP TABLE IF NOT EXISTS indexing_changes(file_id INTEGER, format TEXT NOT NULL, ok INTEGER NOT NULL);"
          "DELETE FROM temp.indexing_changes;");
  SQLite::Statement insert(db, "INSERT INTO temp.indexing_dump(id) VALUES (?)");
  insert.bind(1, dump_id);
  insert.exec();
  SQLite::Statement change(db, "INSERT INTO temp.indexing_changes(file_id, format, ok) VALUES (?, ?, ?)");
  for (const auto& file : changes) {
    if (file.file_id) change.bind(1, *file.file_id);
    else change.bind(1);
    change.bind(2, file.format);
    change.bind(3, file.ok ? 1 : 0);
    change.exec();
    change.reset();
  }
  for (const auto& file : embedded_files())
    if (file.path.starts_with("src/formats/") && file.path.ends_with("_after_index.sql"))
      db.exec(std::string(file.content));
}

std::string build_id() {
  ContentHasher hasher;
  hasher.add_text(ANIMDEX_VERSION);
  for (const auto& file : embedded_files()) {
    hasher.add_text(file.path);
    hasher.add_text(file.content);
  }
  return hasher.hex();
}

void load_reference_tables(SQLite::Database& db, const ReferenceData& reference) {
  db.exec("DELETE FROM ref_bone_names; DELETE FROM ref_animation_purposes; DELETE FROM ref_characters; "
          "DELETE FROM ref_motion_names; DELETE FROM ref_formats;");
  auto text_or_null = [](SQLite::Statement& statement, int index, const std::string& text) {
    if (text.empty()) statement.bind(index);
    else statement.bind(index, text);
  };
  SQLite::Statement bones(db, "INSERT INTO ref_bone_names(game, bone_id, name, alt_name, source) VALUES (?,?,?,?,?)");
  for (const auto& bone : reference.bones()) {
    bones.bind(1, bone.game);
    bones.bind(2, static_cast<std::int64_t>(bone.bone_id));
    text_or_null(bones, 3, bone.name);
    text_or_null(bones, 4, bone.alt_name);
    text_or_null(bones, 5, bone.source);
    bones.exec();
    bones.reset();
  }
  SQLite::Statement purposes(db, "INSERT INTO ref_animation_purposes(game, motion_id, purpose, source) VALUES (?,?,?,?)");
  for (const auto& purpose : reference.purposes()) {
    purposes.bind(1, purpose.game);
    purposes.bind(2, static_cast<std::int64_t>(purpose.motion_id));
    purposes.bind(3, purpose.purpose);
    text_or_null(purposes, 4, purpose.source);
    purposes.exec();
    purposes.reset();
  }
  SQLite::Statement characters(db, "INSERT INTO ref_characters(game, code, internal_id, name, source) VALUES (?,?,?,?,?)");
  for (const auto& character : reference.characters()) {
    characters.bind(1, character.game);
    characters.bind(2, character.code);
    if (character.internal_id) characters.bind(3, static_cast<std::int64_t>(*character.internal_id));
    else characters.bind(3);
    characters.bind(4, character.name);
    text_or_null(characters, 5, character.source);
    characters.exec();
    characters.reset();
  }
  SQLite::Statement names(db, "INSERT INTO ref_motion_names(game, numbering, motion_id, name, source) VALUES (?,?,?,?,?)");
  for (const auto& name : reference.motion_names()) {
    names.bind(1, name.game);
    names.bind(2, name.numbering);
    names.bind(3, name.motion_id);
    names.bind(4, name.name);
    text_or_null(names, 5, name.source);
    names.exec();
    names.reset();
  }
  // The formats this build knows, from the registry: which game each one's numbers belong to.
  SQLite::Statement formats(db, "INSERT INTO ref_formats(format, game, description, id_style) VALUES (?,?,?,?)");
  for (const auto& format : registered_formats()) {
    formats.bind(1, std::string(format.id));
    text_or_null(formats, 2, std::string(format.reference_game));
    formats.bind(3, std::string(format.description));
    formats.bind(4, format.motion_ids_in_hex ? "hex" : "decimal");
    formats.exec();
    formats.reset();
  }
  SQLite::Statement containers(db, "INSERT INTO ref_formats(format, description, id_style, kind) "
                                   "VALUES (?, ?, 'decimal', ?)");
  for (const auto& container : registered_containers()) {
    containers.bind(1, std::string(container.id));
    containers.bind(2, std::string(container.description));
    containers.bind(3, "container");
    containers.exec();
    containers.reset();
    if (container.companion_format.empty()) continue;
    containers.bind(1, std::string(container.companion_format));
    containers.bind(2, fmt::format("the data file of {}: recorded, not parsed; its entries are {}'s members",
                                   container.id, container.id));
    containers.bind(3, "container_data");
    containers.exec();
    containers.reset();
  }
}

}  // namespace animdex
