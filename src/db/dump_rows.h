#pragma once
// Deleting a dump's rows, or a file's, in bulk, for a writer whose connection has foreign-key
// enforcement off.
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace animdex {

// The tables whose rows hang from `dumps` through cascading foreign keys, found from the schema
// (format tables included), `dumps` last. Every one of them has a cascading key that is never
// NULL, and no other table refers to them, so with every dump gone each is emptied whole. A
// schema where that does not hold (a table with only nullable cascading keys, a key of several
// columns, a key from outside the tree) is a programming error: std::logic_error names it.
std::vector<std::string> dump_tables(SQLite::Database& db);

// Deletes every dump and the rows the foreign keys' cascade would delete with it, one unqualified
// DELETE a table, which SQLite truncates instead of deleting row by row (the KH2-size DVD's 1.8 M
// tracks: 0.15 s; a set-based delete of the tracks with enforcement on took 13.6 s, the cascade
// from `dumps` longer still). Inside a transaction, on a connection with enforcement off (with it
// on, SQLite does not truncate a table with foreign keys). The reference tables are left alone.
void delete_every_dump(SQLite::Database& db);

// Deletes dump `dump_id` and the rows the foreign keys' cascade would delete with it, and clears
// the references to them that ON DELETE SET NULL would, set by set, table by table from the top
// (the KH2-size DVD beside another dump: its tracks took 13.6 s with enforcement on, 4.3 s off
// with bone_tracks' two indexes kept up to date, 0.76 s without them). Inside a transaction, on a
// connection with enforcement off.
void delete_dump(SQLite::Database& db, std::int64_t dump_id);

// Deletes a file's rows as the foreign keys' cascade from its `files` row would, for a writer that
// writes with enforcement off: the file, the files inside it (parent_id, at any depth), every row
// that hangs from them, and the references to them that ON DELETE SET NULL clears, set by set,
// table by table, with statements prepared once. With enforcement on, the cascade from one motion
// set of a KH2 DVD (9,278 tracks) took 0.10-0.12 s, the same deletes without it 0.02 s: each
// track's children were looked up through a trigger program of their own. The tables are found
// from the schema, as delete_dump's are. Its temporary tables last as long as it does; make it
// outside any savepoint, since rolling one back would drop them.
class FileRowsDelete {
 public:
  explicit FileRowsDelete(SQLite::Database& db);
  ~FileRowsDelete();
  FileRowsDelete(const FileRowsDelete&) = delete;
  FileRowsDelete& operator=(const FileRowsDelete&) = delete;
  // Inside a transaction. Nothing when `file_id` is no longer the row of `path`: the file went with
  // its container earlier, and SQLite, which has no AUTOINCREMENT here, may have given its id to
  // a row written since.
  void run(std::int64_t file_id, const std::string& path);
  void reset();  // its statements, as after a failed step, before a savepoint is rolled back

 private:
  SQLite::Database& db_;
  std::vector<std::string> gone_tables_;
  std::vector<std::unique_ptr<SQLite::Statement>> steps_;
};

}  // namespace animdex
