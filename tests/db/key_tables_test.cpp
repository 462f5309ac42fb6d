// The `keyframes` and `key_splines` virtual tables (db/key_tables.h): one track or all, in an
// attached database too, a damaged blob as an error naming its track, and the same rows from the
// loadable extension in the sqlite3 shell.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "db/database.h"
#include "db/sql_runner.h"
#include "indexer/pipeline.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

fs::path indexed_sample(const test::TempDir& dir) {
  const auto database = dir / "keys.db";
  test::index_tree(test::write_clean_sample(dir / "sample", 2, true), database);
  return database;
}

std::string shell(const std::string& command) {
  std::string output;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    while (std::size_t read = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, read);
    ::pclose(pipe);
  }
  return output;
}

}  // namespace

TEST_CASE("keyframes reads one track by its id, every track, and an attached database's", "[db][keys]") {
  test::TempDir dir;
  const auto database = indexed_sample(dir);
  auto db = open_read_only(database);
  const auto total = test::query_integer(db, "SELECT SUM(key_count) FROM bone_tracks");
  CHECK(total > 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes") == total);
  const auto track = test::query_integer(db, "SELECT id FROM bone_tracks WHERE key_count > 2 LIMIT 1");
  const auto count = test::query_integer(db, "SELECT key_count FROM bone_tracks WHERE id = " + std::to_string(track));
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes WHERE track_id = " + std::to_string(track)) == count);
  CHECK(test::query_integer(db, "SELECT MAX(key_index) FROM keyframes WHERE track_id = " + std::to_string(track)) ==
        count - 1);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes WHERE track_id IN (" + std::to_string(track) + ", " +
                                    std::to_string(track) + ", -1)") == count);
  // Keys come in (track_id, key_index) order without a sort.
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM (SELECT track_id, key_index, LAG(track_id) OVER () AS pt, "
                                "LAG(key_index) OVER () AS pk FROM keyframes) WHERE track_id < pt OR "
                                "(track_id = pt AND key_index <> pk + 1)") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM key_splines s JOIN bone_tracks t ON t.id = s.track_id "
                                "WHERE t.value_encoding = 'kh2_fcurve'") ==
        test::query_integer(db, "SELECT SUM(key_count) FROM bone_tracks WHERE value_encoding = 'kh2_fcurve'"));
  // A join key by key (key_splines beside keyframes) reads one key per lookup, not the whole track.
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes k JOIN key_splines s ON s.track_id = k.track_id "
                                "AND s.key_index = k.key_index") ==
        test::query_integer(db, "SELECT COUNT(*) FROM key_splines"));
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes WHERE track_id = " + std::to_string(track) +
                                " AND key_index = 1") == 1);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes WHERE track_id = " + std::to_string(track) +
                                " AND key_index = '1'") == 1);  // checked by SQLite as the column compares
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes WHERE key_index = 0") ==
        test::query_integer(db, "SELECT COUNT(*) FROM bone_tracks WHERE key_count > 0"));
  attach_read_only(db, database, "other");
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM other.keyframes") == total);
}

TEST_CASE("a damaged key blob is an error naming its track, not a crash", "[db][keys]") {
  test::TempDir dir;
  const auto database = indexed_sample(dir);
  std::int64_t track = 0;
  {
    SQLite::Database raw(database.string(), SQLite::OPEN_READWRITE);
    track = raw.execAndGet("SELECT id FROM bone_tracks WHERE key_count > 1 LIMIT 1").getInt64();
    raw.exec("UPDATE bone_tracks SET keys = substr(keys, 1, length(keys) - 1) WHERE id = " + std::to_string(track));
  }
  auto db = open_read_only(database);
  CHECK_THROWS_WITH(run_read_only_sql(db, "SELECT COUNT(*) FROM keyframes"),
                    Catch::Contains("bone_tracks.keys of track " + std::to_string(track) + ": at offset 0x") &&
                        Catch::Contains("expected a key blob of"));
}

TEST_CASE("the sqlite3 shell reads keyframes after loading the extension the build makes", "[db][keys]") {
#if defined(__SANITIZE_ADDRESS__)
  SUCCEED("skipped: a sanitizer build's extension cannot load into the uninstrumented sqlite3 shell");
  return;
#endif
  if (shell("command -v sqlite3").empty()) {
    WARN("skipped: the sqlite3 shell is not installed (scripts/deps.txt lists it)");
    return;
  }
  test::TempDir dir;
  const auto database = indexed_sample(dir);
  auto db = open_read_only(database);
  const auto expected = run_read_only_sql(db, "SELECT COUNT(*), SUM(x), MAX(time) FROM keyframes").rows.at(0);
  const std::string module = fs::path(ANIMDEX_KEYS_MODULE).replace_extension().string();
  const std::string output = shell("sqlite3 -readonly '" + database.string() + "' '.load " + module +
                                   "' 'SELECT COUNT(*) FROM keyframes; SELECT COUNT(*) FROM key_splines;' 2>&1");
  CHECK(output == std::to_string(std::get<std::int64_t>(expected.at(0))) + "\n" +
                      std::to_string(test::query_integer(db, "SELECT COUNT(*) FROM key_splines")) + "\n");
  // A real extension: it calls SQLite through the loader's routines, so it needs none of its symbols.
  CHECK(shell("nm -D --undefined-only '" + std::string(ANIMDEX_KEYS_MODULE) + "' | grep -c ' sqlite3_'") == "0\n");
  const std::string without = shell("sqlite3 -readonly '" + database.string() + "' 'SELECT COUNT(*) FROM keyframes' 2>&1");
  CHECK_THAT(without, Catch::Contains("no such module: animdex_keys"));
}
