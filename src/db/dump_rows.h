#pragma once
// Deleting every dump in bulk, for a writer whose connection has foreign-key enforcement off.
#include <SQLiteCpp/Database.h>

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

}  // namespace animdex
