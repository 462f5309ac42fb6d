// delete_every_dump, delete_dump and FileRowsDelete delete exactly what the foreign keys' cascade
// does (from the dumps' rows, or from a file's), table by table, without enforcement; the schema
// has the shape that needs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <optional>

#include "db/database.h"
#include "db/dump_rows.h"
#include "sample/sample_dump.h"
#include "support/database_rows.h"
#include "support/index_tree.h"
#include "support/kh2_trees.h"
#include "support/nitro_trees.h"
#include "support/test_support.h"
#include "containers/narc/narc_writer.h"

using namespace animdex;
namespace fs = std::filesystem;

TEST_CASE("every table that hangs from dumps is emptied whole when every dump goes", "[db][replace]") {
  test::TempDir dir;
  auto db = open_for_writing(dir / "new.db");
  // Throws where a table hangs from dumps only by keys that may be NULL, or is referred to from
  // outside the tree: then delete_every_dump would not be the cascade.
  auto tables = dump_tables(db);
  REQUIRE(tables.back() == "dumps");
  std::sort(tables.begin(), tables.end() - 1);
  CHECK(tables == std::vector<std::string>{"animations", "bone_tracks", "files", "key_spline_rows", "keyframe_rows",
                                           "kh2_model_links", "kh2_models", "kh2_motions", "model_materials",
                                           "model_nodes", "mset_resolution", "mset_slots", "nitro_model_links",
                                           "nitro_models", "node_states", "pattern_names", "scan_warnings",
                                           "track_behaviors", "dumps"});
}

namespace {

// Two dumps of every kind of row: "one" (GNT, KH2 with models, DS with models, a NARC's members,
// other Nitro kinds; keys as rows) and "two" (GNT, keys as blobs).
void index_two_dumps(const fs::path& dir, const fs::path& database) {
  SampleDumpOptions sample;
  sample.character_count = 2;
  write_sample_dump(dir / "tree/gnt", sample);
  write_sample_dump(dir / "other", sample);
  test::write_kh2_link_tree(dir / "tree/kh2");
  test::write_nitro_link_tree(dir / "tree/ds");
  test::write_nitro_kinds_tree(dir / "tree/ds/kinds");
  test::write_bytes(dir / "tree/ds/kinds/shown.nsbva", test::nitro_visibility("shown", 3));
  test::write_bytes(dir / "tree/ds/pack.narc",
                    narc::build_narc({{"a/walk.nsbca", test::nitro_joint_animation("walk", 3)},
                                      {"a/walk.nsbmd", test::nitro_model_file("walk", {"r", "s", "t"})}},
                                     true));
  auto options = test::index_options(dir / "tree", database, "one");
  options.key_storage = KeyStorage::rows;  // keyframe_rows and key_spline_rows too
  run_index(options);
  test::index_tree(dir / "other", database, "two");
}

// Two copies of one database: `cascade` deletes with the foreign keys' enforcement on, `bulk`
// with it off, inside a transaction, each as the test says.
struct TwoCopies {
  explicit TwoCopies(const fs::path& dir) {
    index_two_dumps(dir, dir / "cascade.db");
    fs::copy_file(dir / "cascade.db", dir / "bulk.db");
    cascade.emplace((dir / "cascade.db").string(), SQLite::OPEN_READWRITE);
    bulk.emplace((dir / "bulk.db").string(), SQLite::OPEN_READWRITE);
  }
  void delete_both(const std::string& cascade_sql, const std::function<void(SQLite::Database&)>& bulk_delete) {
    cascade->exec("PRAGMA foreign_keys = ON");
    cascade->exec(cascade_sql);
    bulk->exec("PRAGMA foreign_keys = OFF");
    bulk->exec("BEGIN");
    bulk_delete(*bulk);
    bulk->exec("COMMIT");
  }
  std::optional<SQLite::Database> cascade;
  std::optional<SQLite::Database> bulk;
};

}  // namespace

TEST_CASE("delete_dump leaves the rows the cascade leaves", "[db][replace]") {
  test::TempDir dir;
  TwoCopies copies(dir.path());
  auto& db = *copies.bulk;
  REQUIRE(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE parent_id IS NOT NULL") == 2);
  // A reference across dumps, which animdex never writes but ON DELETE SET NULL clears when "two"
  // goes: a link of a "one" motion to a file of "two".
  for (auto* copy : {&*copies.cascade, &db})
    copy->exec("UPDATE kh2_model_links SET model_file_id = (SELECT MIN(f.id) FROM files f JOIN dumps d ON "
               "d.id = f.dump_id WHERE d.label = 'two') WHERE rowid = (SELECT MIN(rowid) FROM kh2_model_links)");
  const auto before = test::all_rows(db);
  const std::string label = GENERATE("one", "two");
  const auto id = test::query_integer(db, "SELECT id FROM dumps WHERE label = '" + label + "'");

  copies.delete_both("DELETE FROM dumps WHERE id = " + std::to_string(id),
                     [&](SQLite::Database& bulk) { delete_dump(bulk, id); });

  const auto after = test::all_rows(db);
  CHECK(after == test::all_rows(*copies.cascade));
  CHECK(after.size() < before.size());
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM dumps") == 1);
  CHECK(test::sql_lines(db, "PRAGMA foreign_key_check").empty());
  CHECK(test::sql_lines(db, "SELECT name FROM sqlite_temp_schema").empty());  // its own tables gone
}

TEST_CASE("delete_every_dump leaves the rows the cascade leaves", "[db][replace]") {
  test::TempDir dir;
  TwoCopies copies(dir.path());
  auto& db = *copies.bulk;
  for (const auto& table : dump_tables(db))
    if (table != "model_materials")  // the project's BMD0 writer writes no materials
      CHECK(table + " " + std::to_string(test::query_integer(db, "SELECT COUNT(*) FROM " + table)) != table + " 0");
  const auto before = test::all_rows(db);

  copies.delete_both("DELETE FROM dumps", delete_every_dump);

  const auto after = test::all_rows(db);
  CHECK(after == test::all_rows(*copies.cascade));
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM ref_formats") > 0);  // outside the dumps' tree
  CHECK(after.size() < before.size());
  CHECK(test::sql_lines(db, "PRAGMA foreign_key_check").empty());
}

TEST_CASE("FileRowsDelete leaves the rows the cascade from a file's row leaves", "[db][incremental]") {
  test::TempDir dir;
  TwoCopies copies(dir.path());
  auto& db = *copies.bulk;
  // A container with its members, a motion set with slots and model links, the models those links
  // name (ON DELETE SET NULL), a file with keys as rows, and a DS animation linked to its model.
  const std::string pattern = GENERATE("%/pack.narc", "%.mset", "%.mdlx", "%.nsbmd", "%.mot", "%.nsbca");
  const auto id = test::query_integer(db, "SELECT MIN(f.id) FROM files f JOIN dumps d ON d.id = f.dump_id WHERE "
                                          "d.label = 'one' AND f.path LIKE '" + pattern + "'");
  REQUIRE(id > 0);
  const auto before = test::all_rows(db);

  copies.delete_both("DELETE FROM files WHERE id = " + std::to_string(id), [&](SQLite::Database& bulk) {
    const auto path = bulk.execAndGet("SELECT path FROM files WHERE id = " + std::to_string(id)).getString();
    FileRowsDelete remove(bulk);
    remove.run(id, "not/its/path");  // an id that is now another path's row: nothing goes
    CHECK(test::all_rows(bulk) == before);
    remove.run(id, path);
    remove.run(id, path);  // again: its tables were emptied, and a file already gone deletes nothing
  });

  const auto after = test::all_rows(db);
  CHECK(after == test::all_rows(*copies.cascade));
  CHECK(after.size() < before.size());
  CHECK(test::sql_lines(db, "PRAGMA foreign_key_check").empty());
  CHECK(test::sql_lines(db, "SELECT name FROM sqlite_temp_schema").empty());  // its own tables gone
}
