#include "db/dump_rows.h"

#include <SQLiteCpp/Statement.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

namespace animdex {

namespace {

struct ForeignKey {
  std::string table;   // the child table
  std::string column;  // its referencing column
  std::string parent;  // lower case, as SQLite matches table names
  bool cascade = false;     // ON DELETE CASCADE
  bool several_columns = false;
  bool never_null = false;  // NOT NULL, or the table's INTEGER PRIMARY KEY (a rowid)
};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::vector<ForeignKey> foreign_keys(SQLite::Database& db) {
  std::vector<ForeignKey> keys;
  SQLite::Statement list(
      db, "SELECT lower(m.name), k.\"from\", lower(k.\"table\"), k.on_delete = 'CASCADE', "
          "(SELECT count(*) FROM pragma_foreign_key_list(m.name) o WHERE o.id = k.id) > 1, "
          "(SELECT i.\"notnull\" OR (i.pk = 1 AND upper(i.type) = 'INTEGER' AND "
          "(SELECT count(*) FROM pragma_table_info(m.name) p WHERE p.pk > 0) = 1) "
          " FROM pragma_table_info(m.name) i WHERE i.name = k.\"from\") "
          "FROM sqlite_schema m, pragma_foreign_key_list(m.name) k WHERE m.type = 'table'");
  while (list.executeStep())
    keys.push_back({list.getColumn(0).getString(), list.getColumn(1).getString(), list.getColumn(2).getString(),
                    list.getColumn(3).getInt() != 0, list.getColumn(4).getInt() != 0,
                    list.getColumn(5).getInt() != 0});
  return keys;
}

}  // namespace

std::vector<std::string> dump_tables(SQLite::Database& db) {
  const auto keys = foreign_keys(db);
  std::set<std::string> tree{"dumps"};
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& key : keys)
      if (key.cascade && tree.count(key.parent) && tree.insert(key.table).second) grew = true;
  }
  std::set<std::string> emptied_whole{"dumps"};
  for (const auto& key : keys) {
    if (!tree.count(key.parent)) continue;
    if (!tree.count(key.table) || key.several_columns)
      throw std::logic_error(fmt::format("{}.{} refers to {} in a way delete_every_dump does not handle", key.table,
                                         key.column, key.parent));
    if (key.cascade && key.never_null) emptied_whole.insert(key.table);
  }
  std::vector<std::string> tables;
  for (const auto& table : tree) {
    if (!emptied_whole.count(table))
      throw std::logic_error(fmt::format("{} hangs from dumps only by keys that may be NULL", table));
    if (table != "dumps") tables.push_back(table);
  }
  tables.push_back("dumps");
  return tables;
}

void delete_every_dump(SQLite::Database& db) {
  // Enforcement is off, so the order does not matter; an unqualified DELETE is what SQLite truncates.
  for (const auto& table : dump_tables(db)) db.exec(fmt::format("DELETE FROM \"{}\"", table));
}

}  // namespace animdex
