// Re-indexing a label keeps unchanged files' rows, parses new and changed ones, removes vanished
// ones, and ends with the same database content as a full index of the same tree.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <thread>

#include "db/database.h"
#include "db/sql_runner.h"
#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_builder.h"
#include "formats/kh2/kh2_mdlx_writer.h"
#include "indexer/pipeline.h"
#include "sample/sample_dump.h"
#include "support/child_run.h"
#include "support/index_tree.h"
#include "support/kh2_trees.h"
#include "support/nitro_trees.h"
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

// `index` keeps a statement or savepoint journal in memory up to SQLite's 64 KiB default, past
// which it goes to a temporary file. A larger threshold (16 MiB, for the writer's per-file
// savepoint) failed: SQLite's in-memory journal spills in writes as large as the threshold, and its
// Unix file layer keeps only the low 17 bits of a write's length (a 1 MiB write becomes an empty
// one), which it reports as a full disk. A first index
// never spilled (new pages need no journal); replacing a dump does, as each file's rows reuse the
// pages the old rows freed: "database or disk is full" after a new build, on a KH2-size image. The
// setting is process-wide, made before SQLite starts, so this runs `animdex index` in a child.
// Replacing the database's only dump empties its tables (delete_every_dump) and replacing one of
// two deletes its rows set by set (delete_dump): either way the new rows reuse freed pages, so
// both are run.
TEST_CASE("a dump whose files' rows fill many pages is replaced after another build", "[incremental]") {
  test::TempDir dir;
  std::vector<kh2::BarWriteEntry> motions;
  std::vector<std::int16_t> every_bone(250);
  for (std::size_t bone = 0; bone < every_bone.size(); ++bone) every_bone[bone] = static_cast<std::int16_t>(bone);
  for (int slot = 0; slot < 160; ++slot)
    motions.push_back({kh2::kTypeAnb, 0, fmt::format("A{:03}", slot),
                       kh2::build_anb(kh2::build_interpolated_motion(250, every_bone)), -1});
  for (int set = 0; set < 3; ++set)
    test::write_bytes(dir / fmt::format("tree/obj/P_EX{}.mset", set), kh2::write_bar(motions));
  const auto database = dir / "big.db";
  const auto messages = dir / "messages.txt";
  const std::vector<std::string> index{"index", (dir / "tree").string(), "--db", database.string(),
                                       "--label", "big", "--quiet"};
  REQUIRE(test::run_animdex_in_child(index, messages) == 0);
  int other_sets = 0;
  SECTION("the database's only dump") {}
  SECTION("beside another dump") {
    test::write_bytes(dir / "other/obj/P_EX100.mset", kh2::write_bar({motions.front()}));
    REQUIRE(test::run_animdex_in_child({"index", (dir / "other").string(), "--db", database.string(), "--label",
                                        "other", "--quiet"},
                                       messages) == 0);
    other_sets = 1;
  }
  {
    SQLite::Database raw(database.string(), SQLite::OPEN_READWRITE);
    raw.exec("UPDATE dumps SET build_id = 'an older build' WHERE label = 'big'");
  }
  const int replaced = test::run_animdex_in_child(index, messages);
  INFO(test::read_text(messages));
  CHECK(replaced == 0);
  auto db = open_read_only(database);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE status = 'ok'") == 3 + other_sets);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM bone_tracks") == (3 * 160 + other_sets) * 250);
}

namespace {

// What the post-index steps wrote (kh2_after_index.sql, nitro_after_index.sql), without row ids.
std::vector<std::string> links(const fs::path& database) {
  auto db = open_read_only(database);
  std::vector<std::string> lines;
  for (const char* sql :
       {"SELECT file, bone_count, model_file, method, skeletons FROM kh2_links ORDER BY file",
        "SELECT file, animation, model_file, model, method, exact FROM nitro_links ORDER BY file, animation",
        "SELECT f.path, t.bone_id, t.bone_name FROM bone_tracks t JOIN animations a ON a.id = t.animation_id "
        "JOIN files f ON f.id = a.file_id WHERE f.format IN ('nsbca', 'nsbva') ORDER BY f.path, t.bone_id",
        "SELECT path, message FROM scan_warnings WHERE message LIKE '% link: %' ORDER BY path, message"}) {
    for (auto& line : test::sql_lines(db, sql)) lines.push_back(std::move(line));
  }
  return lines;
}

// Re-indexes `tree` into `database` and checks that the links equal those of a full index of the
// same tree into a new database; returns how many files the re-index parsed.
std::int64_t relinked_as_fresh(const fs::path& tree, const fs::path& database, const fs::path& fresh) {
  const auto again = index_tree(tree, database);
  CHECK(again.totals.incremental);
  fs::remove(fresh);
  index_tree(tree, fresh);
  CHECK(links(database) == links(fresh));
  return again.totals.parsed;
}

}  // namespace

// A re-index links again only the motions of the files it wrote while no model changed, and every
// motion once one did: either way, what it ends with is what a full index would write.
TEST_CASE("a re-index leaves the model links a full index of the same tree would", "[incremental][links]") {
  test::TempDir dir;
  const auto tree = dir / "tree";
  test::write_kh2_link_tree(tree / "kh2");
  test::write_nitro_link_tree(tree / "ds");
  const auto database = dir / "inc.db";
  const auto fresh = dir / "fresh.db";
  index_tree(tree, database);
  const auto first = links(database);
  REQUIRE(first.size() > 20);

  // A mark on an unchanged motion's link shows whether the re-index linked it again.
  // (a KH2 motion's and a DS animation's link, each of a file the edits below leave alone).
  const auto mark_unchanged_link = [&](bool mark) {
    SQLite::Database db(database.string(), SQLite::OPEN_READWRITE);
    db.exec(fmt::format("UPDATE kh2_model_links SET skeletons = {} WHERE animation_id IN (SELECT a.id FROM "
                        "animations a JOIN files f ON f.id = a.file_id WHERE f.path = 'kh2/gameplay/W_EX010_R.mset')",
                        mark ? 99 : 1));
    db.exec(fmt::format("UPDATE nitro_model_links SET model_index = {} WHERE animation_id IN (SELECT a.id FROM "
                        "animations a JOIN files f ON f.id = a.file_id WHERE f.path = 'ds/b/wave.nsbca')",
                        mark ? "99" : "NULL"));
  };
  const auto marked = [&] {
    auto db = open_read_only(database);
    return test::sql_lines(db, "SELECT skeletons FROM kh2_links WHERE file = 'kh2/gameplay/W_EX010_R.mset' UNION ALL "
                               "SELECT model_index FROM nitro_model_links l JOIN animations a ON a.id = l.animation_id "
                               "JOIN files f ON f.id = a.file_id WHERE f.path = 'ds/b/wave.nsbca'") ==
           std::vector<std::string>{"99", "99"};
  };

  SECTION("a motion set changes, no model: only it is linked again, the others' links stand") {
    test::write_bytes(tree / "kh2/obj/B_EX200.mset", test::kh2_set_of(16, 3));
    test::write_bytes(tree / "ds/a/lamp.nsbca", test::nitro_joint_animation("lamp", 2));
    mark_unchanged_link(true);
    const auto again = index_tree(tree, database);
    CHECK(again.totals.parsed == 2);
    CHECK(marked());
    mark_unchanged_link(false);  // as it was
    // Now with the bone count of the model of its name: the changed motion alone links to it.
    test::write_bytes(tree / "kh2/obj/B_EX200.mset", test::kh2_set_of(17));
    CHECK(relinked_as_fresh(tree, database, fresh) == 1);
    CHECK(links(database) != first);
  }
  SECTION("a model is added: every motion of the dump is linked again") {
    mark_unchanged_link(true);
    test::write_bytes(tree / "kh2/mods/e/B_EX200.mdlx", kh2::write_mdlx(kh2::chain_skeleton(16)));
    test::write_bytes(tree / "ds/b/wave.nsbmd", test::nitro_model_file("wave", {"w0", "w1"}));
    CHECK(relinked_as_fresh(tree, database, fresh) == 2);
    CHECK_FALSE(marked());
    CHECK(links(database) != first);
  }
  SECTION("a model is removed or changed") {
    fs::remove(tree / "kh2/obj/P_EX100.mdlx");
    fs::remove(tree / "ds/a/door.nsbmd");
    relinked_as_fresh(tree, database, fresh);
    CHECK(links(database) != first);
    test::write_bytes(tree / "kh2/mods/d/F_TT010.mdlx", kh2::write_mdlx(kh2::chain_skeleton(8, 0.1F)));
    test::write_bytes(tree / "ds/a/lamp.nsbmd", test::nitro_model_file("lamp", {"base", "bulb", "glow"}));
    relinked_as_fresh(tree, database, fresh);
  }
  SECTION("a model file that does not parse is no model: the other links stand") {
    auto model = kh2::write_mdlx(kh2::chain_skeleton(16));
    model.resize(model.size() / 2);
    test::write_bytes(tree / "kh2/mods/e/B_EX200.mdlx", model);
    auto ds_model = test::nitro_model_file("wave", {"w0", "w1"});
    ds_model.resize(ds_model.size() / 2);
    test::write_bytes(tree / "ds/b/wave.nsbmd", ds_model);
    mark_unchanged_link(true);
    index_tree(tree, database);
    {
      auto db = open_read_only(database);
      CHECK(test::sql_lines(db, "SELECT format, status FROM files WHERE path IN ('kh2/mods/e/B_EX200.mdlx', "
                                "'ds/b/wave.nsbmd') ORDER BY path") ==
            std::vector<std::string>{"nsbmd|error", "kh2_mdlx|error"});
    }
    CHECK(marked());
    mark_unchanged_link(false);
    CHECK(relinked_as_fresh(tree, database, fresh) == 0);
  }
  SECTION("a motion file is removed") {
    fs::remove(tree / "kh2/gameplay/F_TT010.mset");
    fs::remove(tree / "ds/a/door.nsbca");
    relinked_as_fresh(tree, database, fresh);
  }
}

// Debian's SQLite zeroes deleted rows and writes every page a delete frees (secure_delete); a
// re-index that replaces a changed file would write its old rows' pages once more for nothing.
TEST_CASE("the writer's connection does not zero what a re-index deletes", "[incremental]") {
  test::TempDir dir;
  auto db = open_for_writing(dir / "w.db");
  CHECK(test::query_integer(db, "PRAGMA secure_delete") == 0);
}
