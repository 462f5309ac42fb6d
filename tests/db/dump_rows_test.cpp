// delete_every_dump deletes exactly what deleting the dumps with the foreign keys' cascade does,
// table by table, without enforcement; the schema has the shape that needs.
#include <catch2/catch.hpp>

#include "db/database.h"
#include "db/dump_rows.h"
#include "sample/sample_dump.h"
#include "support/database_rows.h"
#include "support/index_tree.h"
#include "support/kh2_trees.h"
#include "support/nitro_trees.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

TEST_CASE("every table that hangs from dumps is emptied whole when every dump goes", "[db][replace]") {
  test::TempDir dir;
  auto db = open_for_writing(dir / "new.db");
  // Throws where a table hangs from dumps only by keys that may be NULL, or is referred to from
  // outside the tree: then delete_every_dump would not be the cascade.
  const auto tables = dump_tables(db);
  CHECK(tables == std::vector<std::string>{"animations", "bone_tracks", "files", "key_spline_rows", "keyframe_rows",
                                           "kh2_model_links", "kh2_models", "kh2_motions", "model_materials",
                                           "model_nodes", "mset_resolution", "mset_slots", "nitro_model_links",
                                           "nitro_models", "node_states", "pattern_names", "scan_warnings",
                                           "track_behaviors", "dumps"});
}

TEST_CASE("delete_every_dump leaves the rows the cascade leaves", "[db][replace]") {
  test::TempDir dir;
  SampleDumpOptions sample;
  sample.character_count = 2;
  write_sample_dump(dir / "tree/gnt", sample);
  write_sample_dump(dir / "other", sample);
  test::write_kh2_link_tree(dir / "tree/kh2");
  test::write_nitro_link_tree(dir / "tree/ds");
  test::write_nitro_kinds_tree(dir / "tree/ds/kinds");
  test::write_bytes(dir / "tree/ds/kinds/shown.nsbva", test::nitro_visibility("shown", 3));
  auto options = test::index_options(dir / "tree", dir / "cascade.db", "one");
  options.key_storage = KeyStorage::rows;  // keyframe_rows and key_spline_rows too
  run_index(options);
  test::index_tree(dir / "other", dir / "cascade.db", "two");
  fs::copy_file(dir / "cascade.db", dir / "tables.db");

  SQLite::Database cascade((dir / "cascade.db").string(), SQLite::OPEN_READWRITE);
  SQLite::Database tables((dir / "tables.db").string(), SQLite::OPEN_READWRITE);
  for (const auto& table : dump_tables(tables))
    if (table != "model_materials")  // the project's BMD0 writer writes no materials
      CHECK(table + " " + std::to_string(test::query_integer(tables, "SELECT COUNT(*) FROM " + table)) != table + " 0");
  const auto before = test::all_rows(tables);

  cascade.exec("PRAGMA foreign_keys = ON");
  cascade.exec("DELETE FROM dumps");
  tables.exec("PRAGMA foreign_keys = OFF");
  tables.exec("BEGIN");
  delete_every_dump(tables);
  tables.exec("COMMIT");

  const auto after = test::all_rows(tables);
  CHECK(after == test::all_rows(cascade));
  CHECK(test::query_integer(tables, "SELECT COUNT(*) FROM ref_formats") > 0);  // outside the dumps' tree
  CHECK(after.size() < before.size());
  CHECK(test::sql_lines(tables, "PRAGMA foreign_key_check").empty());
}
