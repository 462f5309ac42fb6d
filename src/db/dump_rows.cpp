#include "db/dump_rows.h"

#include <SQLiteCpp/Statement.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

namespace animdex {

namespace {

struct ForeignKey {
  std::string table;   // the child table, lower case (as SQLite matches table names)
  std::string column;  // its referencing column
  std::string parent;  // lower case
  std::string parent_column;  // the referenced column ("rowid" when the key names none)
  std::string on_delete;      // CASCADE, SET NULL, ...
  bool several_columns = false;
  bool never_null = false;  // NOT NULL, or the table's INTEGER PRIMARY KEY (a rowid)
};

std::vector<ForeignKey> foreign_keys(SQLite::Database& db) {
  std::vector<ForeignKey> keys;
  SQLite::Statement list(
      db, "SELECT lower(m.name), k.\"from\", lower(k.\"table\"), coalesce(k.\"to\", 'rowid'), k.on_delete, "
          "(SELECT count(*) FROM pragma_foreign_key_list(m.name) o WHERE o.id = k.id) > 1, "
          "(SELECT i.\"notnull\" OR (i.pk = 1 AND upper(i.type) = 'INTEGER' AND "
          "(SELECT count(*) FROM pragma_table_info(m.name) p WHERE p.pk > 0) = 1) "
          " FROM pragma_table_info(m.name) i WHERE i.name = k.\"from\") "
          "FROM sqlite_schema m, pragma_foreign_key_list(m.name) k WHERE m.type = 'table'");
  while (list.executeStep())
    keys.push_back({list.getColumn(0).getString(), list.getColumn(1).getString(), list.getColumn(2).getString(),
                    list.getColumn(3).getString(), list.getColumn(4).getString(), list.getColumn(5).getInt() != 0,
                    list.getColumn(6).getInt() != 0});
  return keys;
}

// `tables` ordered so that each comes after every other table it has a cascading key to.
std::vector<std::string> parents_first(const std::vector<std::string>& tables, const std::vector<ForeignKey>& keys) {
  std::vector<std::string> ordered;
  std::set<std::string> placed;
  while (ordered.size() < tables.size()) {
    const auto before = ordered.size();
    for (const auto& table : tables) {
      const bool ready = !placed.count(table) && std::none_of(keys.begin(), keys.end(), [&](const ForeignKey& key) {
        return key.table == table && key.on_delete == "CASCADE" && key.parent != table &&
               std::count(tables.begin(), tables.end(), key.parent) && !placed.count(key.parent);
      });
      if (ready) {
        ordered.push_back(table);
        placed.insert(table);
      }
    }
    if (ordered.size() == before) throw std::logic_error("the dumps' tables refer to each other in a cycle");
  }
  return ordered;
}

// The tables a cascade from `root` (`dumps` or `files`) reaches, parents before their children,
// `root` first, and the keys into them; checked to have the shape the functions below rely on.
struct DumpTree {
  std::vector<std::string> tables;
  std::vector<ForeignKey> keys;  // every key whose parent is in the tree
  std::map<std::string, std::string> referenced;  // a parent table: the one column its children name
};

DumpTree dump_tree(SQLite::Database& db, const std::string& root = "dumps") {
  const auto all_keys = foreign_keys(db);
  DumpTree tree{{root}, {}, {}};
  std::set<std::string> in_tree{root};
  for (std::size_t next = 0; next < tree.tables.size(); ++next)
    for (const auto& key : all_keys)
      if (key.on_delete == "CASCADE" && key.parent == tree.tables[next] && in_tree.insert(key.table).second)
        tree.tables.push_back(key.table);
  tree.tables = parents_first(tree.tables, all_keys);
  std::set<std::string> owned{root};  // with a cascading key that is never NULL
  for (const auto& key : all_keys) {
    if (!in_tree.count(key.parent)) continue;
    const auto column = tree.referenced.emplace(key.parent, key.parent_column).first->second;
    if (!in_tree.count(key.table) || key.several_columns || column != key.parent_column ||
        (key.on_delete != "CASCADE" && key.on_delete != "SET NULL"))
      throw std::logic_error(fmt::format("{}.{} refers to {} in a way the bulk deletes under {} do not handle",
                                         key.table, key.column, key.parent, root));
    if (key.on_delete == "CASCADE" && key.never_null) owned.insert(key.table);
    tree.keys.push_back(key);
  }
  for (const auto& table : tree.tables)
    if (!owned.count(table))
      throw std::logic_error(fmt::format("{} hangs from {} only by keys that may be NULL", table, root));
  return tree;
}

// The temporary table of the values of `table` that the rows that go have in the column its
// children refer to (`prefix` keeps one delete's tables apart from another's).
std::string gone(const std::string& table, const std::string& prefix) {
  return "temp.\"" + prefix + table + "\"";
}

// The rows of `table` that go when the rows in their parents' gone tables go: those with a
// cascading key among them. A key to its own table (files.parent_id) is left out: under `dumps` it
// stays within a dump, so the file's dump_id already says; FileRowsDelete follows it itself.
std::string going(const DumpTree& tree, const std::string& table, const std::string& prefix) {
  std::string condition;
  for (const auto& key : tree.keys)
    if (key.table == table && key.on_delete == "CASCADE" && key.parent != table)
      condition += fmt::format("{}\"{}\" IN (SELECT id FROM {})", condition.empty() ? "" : " OR ", key.column,
                               gone(key.parent, prefix));
  return condition;
}

}  // namespace

std::vector<std::string> dump_tables(SQLite::Database& db) {
  auto tables = dump_tree(db).tables;
  std::rotate(tables.begin(), tables.begin() + 1, tables.end());  // dumps last
  return tables;
}

void delete_every_dump(SQLite::Database& db) {
  // Enforcement is off, so the order does not matter; an unqualified DELETE is what SQLite truncates.
  for (const auto& table : dump_tables(db)) db.exec(fmt::format("DELETE FROM \"{}\"", table));
}

namespace {

// Makes an empty gone table (`prefix`) for each table the tree's keys refer to; returns their names.
std::vector<std::string> make_gone_tables(SQLite::Database& db, const DumpTree& tree, const std::string& prefix) {
  std::vector<std::string> names;
  for (const auto& [table, column] : tree.referenced) {
    names.push_back(gone(table, prefix));
    db.exec(fmt::format("DROP TABLE IF EXISTS {0}; CREATE TEMP TABLE {0} (id INTEGER PRIMARY KEY)", names.back()));
  }
  return names;
}

// Once the root's rows that go are in its gone table: the statements that find, from the top, each
// table's rows that go (so every table's go with one set-based DELETE afterwards; enforcement is
// off, so their order does not matter), delete them and the root's, and then clear the references
// ON DELETE SET NULL would (after the deletes, so only rows that stay are written).
std::vector<std::string> deletes_under(const DumpTree& tree, const std::string& prefix) {
  const std::string& root = tree.tables.front();  // dump_tree puts it first
  std::vector<std::string> steps;
  for (const auto& table : tree.tables)
    if (table != root && tree.referenced.count(table))
      steps.push_back(fmt::format("INSERT INTO {} SELECT \"{}\" FROM \"{}\" WHERE {}", gone(table, prefix),
                                  tree.referenced.at(table), table, going(tree, table, prefix)));
  for (const auto& table : tree.tables)
    if (table != root) steps.push_back(fmt::format("DELETE FROM \"{}\" WHERE {}", table, going(tree, table, prefix)));
  steps.push_back(fmt::format("DELETE FROM \"{}\" WHERE id IN (SELECT id FROM {})", root, gone(root, prefix)));
  for (const auto& key : tree.keys)
    if (key.on_delete == "SET NULL")
      steps.push_back(fmt::format("UPDATE \"{0}\" SET \"{1}\" = NULL WHERE \"{1}\" IN (SELECT id FROM {2})",
                                  key.table, key.column, gone(key.parent, prefix)));
  return steps;
}

// The prefixes of delete_dump's and FileRowsDelete's temporary tables: apart, since one run may use both.
constexpr char kDumpsGone[] = "animdex_gone_";
constexpr char kFilesGone[] = "animdex_files_gone_";

}  // namespace

void delete_dump(SQLite::Database& db, std::int64_t dump_id) {
  const auto tree = dump_tree(db);
  const auto gone_tables = make_gone_tables(db, tree, kDumpsGone);
  db.exec(fmt::format("INSERT INTO {} VALUES ({})", gone("dumps", kDumpsGone), dump_id));
  for (const auto& step : deletes_under(tree, kDumpsGone)) db.exec(step);
  for (const auto& table : gone_tables) db.exec(fmt::format("DROP TABLE {}", table));
}

FileRowsDelete::FileRowsDelete(SQLite::Database& db) : db_(db) {
  const auto tree = dump_tree(db, "files");
  // `going` leaves keys to their own table out; the one the schema has is followed below.
  for (const auto& key : tree.keys)
    if (key.table == key.parent && (key.table != "files" || key.column != "parent_id" || key.on_delete != "CASCADE"))
      throw std::logic_error(fmt::format("{}.{} refers to its own table in a way FileRowsDelete does not handle",
                                         key.table, key.column));
  gone_tables_ = make_gone_tables(db, tree, kFilesGone);
  const auto step = [&](const std::string& sql) { steps_.push_back(std::make_unique<SQLite::Statement>(db, sql)); };
  // The file, while it is still the row of that path, and the files inside it at any depth.
  step(fmt::format("WITH RECURSIVE inside(id) AS (SELECT id FROM files WHERE id = ?1 AND path = ?2 UNION "
                   "SELECT f.id FROM files f JOIN inside i ON f.parent_id = i.id) INSERT INTO {} SELECT id FROM inside",
                   gone("files", kFilesGone)));
  for (const auto& sql : deletes_under(tree, kFilesGone)) step(sql);
  for (const auto& table : gone_tables_) step(fmt::format("DELETE FROM {}", table));
}

FileRowsDelete::~FileRowsDelete() {
  steps_.clear();  // finalized before their tables go
  for (const auto& table : gone_tables_) db_.tryExec(fmt::format("DROP TABLE IF EXISTS {}", table));
}

void FileRowsDelete::reset() {
  for (auto& step : steps_) step->tryReset();  // reset() would throw a failed step's error again
}

void FileRowsDelete::run(std::int64_t file_id, const std::string& path) {
  reset();  // a step that failed last time (a full disk) is left unreset; its error was reported then
  steps_.front()->bind(1, file_id);
  steps_.front()->bind(2, path);
  for (auto& step : steps_) step->exec();
}

}  // namespace animdex
