#pragma once
// Deleting dumps in bulk, for a writer whose connection has foreign-key enforcement off.
#include <SQLiteCpp/Database.h>

namespace animdex {

// Deletes every dump and every row that hangs from one through foreign keys, the rows the
// cascade would delete, found from the schema's foreign keys (format tables and tables a user
// added included), and sets the references ON DELETE SET NULL would clear. Meant for a
// connection with enforcement off, inside a transaction: a table whose every row belongs to a
// dump is emptied with one unqualified DELETE, which SQLite truncates instead of deleting row by
// row (the KH2-size DVD's 1.8 M tracks: 0.15 s; a set-based delete of the tracks with enforcement
// on took 13.6 s, the cascade from `dumps` longer still). Tables outside the dumps' tree (the reference tables) are left as they are.
// Call only where every_dump_deletes_alone(db).
void delete_every_dump(SQLite::Database& db);

// Whether every foreign key into the dumps' tree cascades or sets NULL, so deleting the dumps
// deletes or clears whatever refers to their rows. animdex's own keys all do; a table a user added
// with another action (NO ACTION, RESTRICT, SET DEFAULT) is left to the foreign keys' own checks.
bool every_dump_deletes_alone(SQLite::Database& db);

}  // namespace animdex
