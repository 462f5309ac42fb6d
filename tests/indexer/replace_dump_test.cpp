// A run that replaces a dump (a new build, --full, other keyframe storage, --replace) ends with the
// rows a first index of the same tree would write, however it deletes the old ones
// (DumpWriter::start_transaction), and another dump is never touched, even by a run that fails.
#include <catch2/catch.hpp>

#include "db/database.h"
#include "indexer/pipeline.h"
#include "sample/sample_dump.h"
#include "support/database_rows.h"
#include "support/index_tree.h"
#include "support/kh2_trees.h"
#include "support/nitro_trees.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

void write_tree(const fs::path& root) {
  SampleDumpOptions sample;
  sample.character_count = 2;
  write_sample_dump(root / "gnt", sample);
  test::write_kh2_link_tree(root / "kh2");
  test::write_nitro_link_tree(root / "ds");
}

IndexSummary index_as(const fs::path& root, const fs::path& database, const std::string& label,
                      KeyStorage storage = KeyStorage::blob, bool incremental = true, bool replace = false) {
  auto options = test::index_options(root, database, label);
  options.key_storage = storage;
  options.incremental = incremental;
  options.replace = replace;
  return run_index(options);
}

void forge_older_build(const fs::path& database, const std::string& label) {
  SQLite::Database db(database.string(), SQLite::OPEN_READWRITE);
  SQLite::Statement forge(db, "UPDATE dumps SET build_id = 'an older build' WHERE label = ?");
  forge.bind(1, label);
  forge.exec();
}

std::vector<std::string> rows_of(const fs::path& database) {
  SQLite::Database db(database.string(), SQLite::OPEN_READONLY);
  return test::all_rows(db, {"indexed_at", "parse_ms"});  // times of the run
}

std::vector<std::string> indexes_of(const fs::path& database) {
  SQLite::Database db(database.string(), SQLite::OPEN_READONLY);
  return test::sql_lines(db, "SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name");
}

// A dump's files, animations, tracks, keys and links as a query sees them, without row ids.
std::vector<std::string> dump_content(SQLite::Database& db, const std::string& label) {
  std::vector<std::string> lines;
  for (const std::string sql :
       {"SELECT f.path, f.format, f.status, f.content_hash, f.member_name, p.path FROM files f JOIN dumps d ON "
        "d.id = f.dump_id LEFT JOIN files p ON p.id = f.parent_id WHERE d.label = ?1 ORDER BY f.path",
        "SELECT f.path, a.slot, a.name, a.content_hash, t.track_index, t.bone_name, t.content_hash, "
        "(SELECT COUNT(*) || ' ' || SUM(k.x) FROM keyframes k WHERE k.track_id = t.id) FROM bone_tracks t JOIN "
        "animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id JOIN dumps d ON d.id = f.dump_id "
        "WHERE d.label = ?1 ORDER BY f.path, a.slot, a.name, t.track_index",
        "SELECT file, bone_count, model_file, method FROM kh2_links WHERE dump = ?1 ORDER BY file",
        "SELECT file, animation, model_file, model, method FROM nitro_links WHERE dump = ?1 ORDER BY file, animation",
        "SELECT w.path, w.message FROM scan_warnings w JOIN dumps d ON d.id = w.dump_id WHERE d.label = ?1 "
        "ORDER BY w.path, w.message"}) {
    SQLite::Statement query(db, sql);
    query.bind(1, label);
    while (query.executeStep()) {
      std::string line;
      for (int c = 0; c < query.getColumnCount(); ++c) line += query.getColumn(c).getString() + "|";
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

// A database of two dumps: "big" (the tree above, most of the tracks) and "small" (one KH2 set).
fs::path index_big_and_small(const fs::path& dir) {
  write_tree(dir / "big");
  test::write_bytes(dir / "small/obj/B_EX100.mset", test::kh2_set_of(4));
  const auto database = dir / "two-dumps.db";
  index_as(dir / "big", database, "big");
  index_as(dir / "small", database, "small");
  return database;
}

}  // namespace

TEST_CASE("replacing the database's only dump leaves what a first index into a new database would",
          "[incremental][replace]") {
  test::TempDir dir;
  write_tree(dir / "tree");
  const auto database = dir / "replaced.db";
  const auto fresh = dir / "fresh.db";
  CHECK(index_as(dir / "tree", fresh, "L").totals.bulk_load);
  bool incremental = true;
  bool replace = false;

  SECTION("after another build") {
    index_as(dir / "tree", database, "L");
    forge_older_build(database, "L");
  }
  SECTION("after another keyframe storage (rows: keyframe_rows and key_spline_rows go)") {
    index_as(dir / "tree", database, "L", KeyStorage::rows);
  }
  SECTION("--full") {
    index_as(dir / "tree", database, "L");
    incremental = false;
  }
  SECTION("--replace of a dump indexed from another root") {
    SampleDumpOptions sample;
    sample.character_count = 3;
    write_sample_dump(dir / "elsewhere", sample);
    index_as(dir / "elsewhere", database, "L");
    replace = true;
  }
  const auto replaced = index_as(dir / "tree", database, "L", KeyStorage::blob, incremental, replace);
  CHECK_FALSE(replaced.totals.incremental);
  CHECK(replaced.totals.bulk_load);
  // Row ids included (a cascade that emptied the tables would leave the same: the flag above says
  // which way it went).
  CHECK(rows_of(database) == rows_of(fresh));
  CHECK(indexes_of(database) == indexes_of(fresh));
  SQLite::Database db(database.string(), SQLite::OPEN_READONLY);
  CHECK(test::sql_lines(db, "PRAGMA foreign_key_check").empty());
}

TEST_CASE("replacing one of two dumps leaves the other as it was", "[incremental][replace]") {
  test::TempDir dir;
  const auto database = index_big_and_small(dir.path());
  // A dump with most of the tracks is deleted without bone_tracks' indexes, which are built again
  // over both dumps (a bulk load); a small one with them kept up to date, which costs only its rows.
  const std::string label = GENERATE("big", "small");
  const std::string other = label == "big" ? "small" : "big";
  const auto dump_of = [&](const std::string& name) {
    SQLite::Database db(database.string(), SQLite::OPEN_READONLY);
    return dump_content(db, name);
  };
  const auto before = dump_of(other);
  REQUIRE(before.size() > 1);
  forge_older_build(database, label);
  const auto replaced = index_as(dir / label, database, label);
  CHECK_FALSE(replaced.totals.incremental);
  CHECK(replaced.totals.bulk_load == (label == "big"));
  CHECK(dump_of(other) == before);
  SQLite::Database db(database.string(), SQLite::OPEN_READONLY);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM dumps") == 2);
  CHECK(test::sql_lines(db, "PRAGMA foreign_key_check").empty());
  // The replaced dump holds what a first index of its tree would, and the indexes are back.
  const auto alone = dir / "alone.db";
  index_as(dir / label, alone, label);
  SQLite::Database fresh(alone.string(), SQLite::OPEN_READONLY);
  CHECK(dump_content(db, label) == dump_content(fresh, label));
  CHECK(indexes_of(database) == indexes_of(alone));
}

TEST_CASE("a replace that fails leaves both dumps as they were", "[incremental][replace]") {
  test::TempDir dir;
  const auto database = index_big_and_small(dir.path());
  const auto rows = rows_of(database);
  const auto indexes = indexes_of(database);
  // "big" (most of the tracks: deleted set by set, its indexes dropped) replaced by a tree inside
  // dump "small": refused as an overlap after the old rows went.
  CHECK_THROWS_AS(index_as(dir / "small/obj", database, "big", KeyStorage::blob, true, /*replace=*/true),
                  DumpsOverlap);
  CHECK(rows_of(database) == rows);
  CHECK(indexes_of(database) == indexes);
}
