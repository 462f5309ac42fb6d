// Re-indexing a label keeps unchanged files' rows, parses new and changed ones, removes vanished
// ones, and ends with the same database content as a full index of the same tree.
#include <catch2/catch.hpp>
#include <thread>

#include "db/database.h"
#include "db/sql_runner.h"
#include "indexer/pipeline.h"
#include "sample/sample_dump.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

IndexSummary index_tree(const fs::path& root, const fs::path& database, bool incremental = true,
                        KeyStorage storage = KeyStorage::blob) {
  auto options = test::index_options(root, database, "L");
  options.incremental = incremental;
  options.key_storage = storage;
  return run_index(options);
}

// Everything a query could see of the dump, without row ids.
std::vector<std::string> content(const fs::path& database) {
  auto db = open_read_only(database);
  std::vector<std::string> lines;
  for (const char* sql :
       {"SELECT path, format, size, content_hash, status, error, animation_count FROM files ORDER BY path",
        "SELECT f.path, a.slot, a.name, a.key_count, a.content_hash FROM animations a JOIN files f ON f.id = a.file_id "
        "ORDER BY f.path, a.slot, a.name",
        "SELECT f.path, a.slot, t.track_index, t.bone_name, t.content_hash, COUNT(k.key_index), SUM(k.x) "
        "FROM bone_tracks t JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id "
        "LEFT JOIN keyframes k ON k.track_id = t.id GROUP BY t.id ORDER BY f.path, a.slot, t.track_index",
        "SELECT path, message FROM scan_warnings ORDER BY path, message",
        "SELECT file_count, error_count FROM dumps"}) {
    for (auto& line : test::sql_lines(db, sql)) lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace

TEST_CASE("an unchanged tree is not re-read, changes, additions and deletions are applied", "[incremental]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 4;
  write_sample_dump(dir / "tree", options);
  const auto database = dir / "inc.db";
  const auto first = index_tree(dir / "tree", database);
  CHECK_FALSE(first.totals.incremental);
  CHECK(first.totals.parsed == 13);

  const auto again = index_tree(dir / "tree", database);
  CHECK(again.totals.incremental);
  CHECK(again.totals.unchanged == 13);
  CHECK(again.totals.parsed == 0);
  CHECK(again.totals.removed == 0);
  CHECK(again.totals.errors == first.totals.errors);
  CHECK(again.totals.animations == first.totals.animations);

  // Touch one file (same bytes, new time), rewrite another with other content, delete one, add one.
  const auto touched = dir / "tree/files/chr/sas/0001.mot";
  fs::last_write_time(touched, fs::last_write_time(touched) + std::chrono::seconds(5));
  fs::copy_file(dir / "tree/files/chr/hak/0001.mot", dir / "tree/files/chr/kak/0001.mot",
                fs::copy_options::overwrite_existing);
  fs::remove(dir / "tree/files/chr/loc/0001.mot");
  fs::copy_file(dir / "tree/files/chr/hak/0000.mot", dir / "tree/files/chr/hak/0002.mot");
  test::write_text(dir / "tree/files/lw/camera.mot", "LWMO\n1\n9\n1\n0 0 0 0 0 0 1 1 1\n0 0 2 0 0\n");  // a warning now
  const auto changed = index_tree(dir / "tree", database);
  CHECK(changed.totals.incremental);
  CHECK(changed.totals.parsed == 3);     // kak/0001.mot, hak/0002.mot, lw/camera.mot
  CHECK(changed.totals.removed == 1);    // loc/0001.mot
  CHECK(changed.totals.unchanged == 10);  // 9 untouched + the touched file, kept by its hash
  CHECK(changed.totals.files == 13);

  // The result is exactly what a full index of the same tree gives.
  const auto full_database = dir / "full.db";
  index_tree(dir / "tree", full_database, /*incremental=*/false);
  CHECK(content(database) == content(full_database));
  auto db = open_read_only(database);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM scan_warnings WHERE path = 'files/lw/camera.mot'") == 1);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes WHERE track_id NOT IN (SELECT id FROM bone_tracks)") == 0);
}

TEST_CASE("another build, --full or other keyframe storage re-parse everything", "[incremental]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 2;
  options.include_problem_files = false;
  write_sample_dump(dir / "tree", options);
  const auto database = dir / "inc.db";
  index_tree(dir / "tree", database);
  CHECK_FALSE(index_tree(dir / "tree", database, /*incremental=*/false).totals.incremental);
  {
    SQLite::Database raw(database.string(), SQLite::OPEN_READWRITE);
    raw.exec("UPDATE dumps SET build_id = 'an older build'");
  }
  const auto rebuilt = index_tree(dir / "tree", database);
  CHECK_FALSE(rebuilt.totals.incremental);
  CHECK(rebuilt.totals.parsed == 4);

  const auto lean = index_tree(dir / "tree", database, true, KeyStorage::none);
  CHECK_FALSE(lean.totals.incremental);
  auto db = open_read_only(database);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM bone_tracks") > 0);
  CHECK(test::query_integer(db, "SELECT SUM(key_count) FROM animations") == lean.totals.keys);
  CHECK(std::get<std::string>(run_read_only_sql(db, "SELECT keyframe_storage FROM dumps").rows.at(0).at(0)) == "none");
}
