#include "db/dump_rows.h"

#include <SQLiteCpp/Statement.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace animdex {

namespace {

struct ForeignKey {
  std::string table;   // the child table
  std::string column;  // its referencing column (animdex's foreign keys have one column)
  std::string parent;
  std::string on_delete;  // CASCADE, SET NULL, NO ACTION, ...
  bool never_null = false;
};

std::string quoted(const std::string& name) {
  std::string text = "\"";
  for (const char c : name) text += c == '"' ? std::string("\"\"") : std::string(1, c);
  return text + "\"";
}

bool never_null(SQLite::Database& db, const std::string& table, const std::string& column) {
  // NOT NULL, or the table's INTEGER PRIMARY KEY (a rowid, never NULL though not declared so).
  SQLite::Statement info(db, "SELECT \"notnull\", pk = 1 AND upper(type) = 'INTEGER' AND "
                             "(SELECT count(*) FROM pragma_table_info(?1) WHERE pk > 0) = 1 "
                             "FROM pragma_table_info(?1) WHERE name = ?2");
  info.bind(1, table);
  info.bind(2, column);
  return info.executeStep() && (info.getColumn(0).getInt() != 0 || info.getColumn(1).getInt() != 0);
}

std::vector<ForeignKey> foreign_keys(SQLite::Database& db) {
  std::vector<ForeignKey> keys;
  SQLite::Statement list(db, "SELECT m.name, k.\"from\", k.\"table\", k.on_delete FROM sqlite_schema m, "
                             "pragma_foreign_key_list(m.name) k WHERE m.type = 'table'");
  while (list.executeStep()) {
    ForeignKey key{list.getColumn(0).getString(), list.getColumn(1).getString(), list.getColumn(2).getString(),
                   list.getColumn(3).getString()};
    key.never_null = never_null(db, key.table, key.column);
    keys.push_back(std::move(key));
  }
  return keys;
}

// The tables whose rows a cascade from `dumps` reaches.
std::set<std::string> dump_tree(const std::vector<ForeignKey>& keys) {
  std::set<std::string> tree{"dumps"};
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& key : keys)
      if (key.on_delete == "CASCADE" && tree.count(key.parent) && tree.insert(key.table).second) grew = true;
  }
  return tree;
}

}  // namespace

void delete_every_dump(SQLite::Database& db) {
  const auto keys = foreign_keys(db);
  const auto tree = dump_tree(keys);
  // With every dump gone, every row of the tree goes: a row that has a cascading reference into
  // it (the references are checked, so each points at a row that goes too). A table all of whose
  // rows have one is emptied without a condition.
  std::map<std::string, std::vector<const ForeignKey*>> cascading;
  for (const auto& key : keys)
    if (key.on_delete == "CASCADE" && tree.count(key.table) && tree.count(key.parent))
      cascading[key.table].push_back(&key);
  for (const auto& [table, references] : cascading) {
    std::string condition;
    bool whole_table = false;
    for (const auto* key : references) {
      whole_table = whole_table || key->never_null;
      condition += fmt::format("{}{} IS NOT NULL", condition.empty() ? "" : " OR ", quoted(key->column));
    }
    db.exec(fmt::format("DELETE FROM {}{}", quoted(table), whole_table ? "" : " WHERE " + condition));
  }
  db.exec("DELETE FROM dumps");
  for (const auto& key : keys)
    if (key.on_delete == "SET NULL" && tree.count(key.parent))
      db.exec(fmt::format("UPDATE {0} SET {1} = NULL WHERE {1} IS NOT NULL", quoted(key.table), quoted(key.column)));
}

bool every_dump_deletes_alone(SQLite::Database& db) {
  const auto keys = foreign_keys(db);
  const auto tree = dump_tree(keys);
  return std::all_of(keys.begin(), keys.end(), [&](const ForeignKey& key) {
    return !tree.count(key.parent) || key.on_delete == "CASCADE" || key.on_delete == "SET NULL";
  });
}

}  // namespace animdex
