// delete_every_dump deletes exactly what deleting the dumps with the foreign keys' cascade does,
// table by table, without enforcement.
#include <catch2/catch.hpp>

#include "db/dump_rows.h"
#include "sample/sample_dump.h"
#include "support/database_rows.h"
#include "support/index_tree.h"
#include "support/kh2_trees.h"
#include "support/nitro_trees.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

// A table a user added, hanging from animdex's by a cascading reference that may be NULL and one
// that is set to NULL: rows with no cascading reference stay, with the other cleared.
void add_user_table(SQLite::Database& db) {
  db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, "
          "file_id INTEGER REFERENCES files(id) ON DELETE CASCADE, "
          "about INTEGER REFERENCES animations(id) ON DELETE SET NULL, text TEXT)");
  db.exec("INSERT INTO notes(file_id, about, text) SELECT id, NULL, 'on a file' FROM files LIMIT 3");
  db.exec("INSERT INTO notes(file_id, about, text) SELECT NULL, id, 'on an animation' FROM animations LIMIT 3");
  db.exec("INSERT INTO notes(file_id, about, text) VALUES (NULL, NULL, 'on nothing')");
}

}  // namespace

TEST_CASE("delete_every_dump leaves the rows the cascade leaves", "[db][replace]") {
  test::TempDir dir;
  SampleDumpOptions sample;
  sample.character_count = 2;
  write_sample_dump(dir / "tree/gnt", sample);
  write_sample_dump(dir / "other", sample);
  test::write_kh2_link_tree(dir / "tree/kh2");
  test::write_nitro_link_tree(dir / "tree/ds");
  auto options = test::index_options(dir / "tree", dir / "cascade.db", "one");
  options.key_storage = KeyStorage::rows;  // keyframe_rows and key_spline_rows too
  run_index(options);
  test::index_tree(dir / "other", dir / "cascade.db", "two");
  fs::copy_file(dir / "cascade.db", dir / "tables.db");

  SQLite::Database cascade((dir / "cascade.db").string(), SQLite::OPEN_READWRITE);
  SQLite::Database tables((dir / "tables.db").string(), SQLite::OPEN_READWRITE);
  for (auto* db : {&cascade, &tables}) add_user_table(*db);
  const auto before = test::all_rows(tables);
  for (const char* table : {"mset_slots", "kh2_models", "model_nodes", "nitro_model_links", "keyframe_rows",
                            "key_spline_rows", "track_behaviors", "scan_warnings"})
    CHECK(test::query_integer(tables, std::string("SELECT COUNT(*) FROM ") + table) > 0);

  cascade.exec("PRAGMA foreign_keys = ON");
  cascade.exec("DELETE FROM dumps");
  tables.exec("PRAGMA foreign_keys = OFF");
  tables.exec("BEGIN");
  delete_every_dump(tables);
  tables.exec("COMMIT");
  tables.exec("PRAGMA foreign_keys = ON");

  const auto after = test::all_rows(tables);
  CHECK(after == test::all_rows(cascade));
  CHECK(test::sql_lines(tables, "SELECT file_id, about, text FROM notes ORDER BY id") ==
        std::vector<std::string>{"||on an animation", "||on an animation", "||on an animation", "||on nothing"});
  CHECK(test::query_integer(tables, "SELECT COUNT(*) FROM ref_formats") > 0);  // outside the dumps' tree
  CHECK(after.size() < before.size());
  CHECK(test::sql_lines(tables, "PRAGMA foreign_key_check").empty());
  CHECK(every_dump_deletes_alone(tables));
}

TEST_CASE("a reference that neither cascades nor sets NULL keeps the dumps from going in bulk", "[db][replace]") {
  test::TempDir dir;
  test::write_kh2_link_tree(dir / "tree");
  test::index_tree(dir / "tree", dir / "one.db");
  SQLite::Database db((dir / "one.db").string(), SQLite::OPEN_READWRITE);
  CHECK(every_dump_deletes_alone(db));
  db.exec("CREATE TABLE unrelated (id INTEGER PRIMARY KEY, format TEXT REFERENCES ref_formats(format))");
  CHECK(every_dump_deletes_alone(db));
  db.exec("CREATE TABLE keep_mine (id INTEGER PRIMARY KEY, animation INTEGER REFERENCES animations(id))");
  CHECK_FALSE(every_dump_deletes_alone(db));
}
