// A real version-1 database (made with the v1 DDL kept in tests/db/fixtures/) is migrated to the
// current schema by open_for_writing, keeping its data.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "db/database.h"
#include "db/sql_runner.h"
#include "support/test_support.h"

using namespace animdex;

TEST_CASE("an older schema version is migrated, keeping its data", "[schema][migration]") {
  test::TempDir dir;
  const auto path = dir / "v1.db";
  {
    std::ifstream in(std::filesystem::path(ANIMDEX_SOURCE_DIR) / "tests/db/fixtures/schema_v1.sql");
    std::stringstream ddl;
    ddl << in.rdbuf();
    SQLite::Database v1(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    v1.exec(ddl.str());
    v1.exec("PRAGMA user_version = 1");
    v1.exec("INSERT INTO dumps(label, root, indexed_at) VALUES ('old', '/r', '2026-01-01T00:00:00Z');"
            "INSERT INTO files(dump_id, path, format, size, status) VALUES (1, 'a.mot', 'unknown', 3, 'unknown');");
  }
  CHECK_THROWS_WITH(open_read_only(path), Catch::Contains("schema version 1, older than 8"));
  {
    auto db = open_for_writing(path);
    CHECK(db.execAndGet("PRAGMA user_version").getInt() == kSchemaVersion);
  }
  auto db = open_read_only(path);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path = 'a.mot' AND parse_ms IS NULL") == 1);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM scan_warnings") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM key_splines") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM dumps WHERE label = 'old' AND keyframe_storage = 'rows' "
                                "AND build_id IS NULL") == 1);
  CHECK(std::get<std::string>(run_read_only_sql(db, "PRAGMA integrity_check").rows.at(0).at(0)) == "ok");
}

TEST_CASE("a database from a newer animdex is refused, not touched", "[schema][migration]") {
  test::TempDir dir;
  const auto path = dir / "new.db";
  { open_for_writing(path); }
  {
    SQLite::Database raw(path.string(), SQLite::OPEN_READWRITE);
    raw.exec("PRAGMA user_version = 99");
  }
  CHECK_THROWS_WITH(open_for_writing(path), Catch::Contains("schema version 99, newer"));
  SQLite::Database raw(path.string(), SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("PRAGMA user_version").getInt() == 99);
}

TEST_CASE("a version-7 database migrates in place: KH2 header facts move to kh2_motions", "[schema][migration]") {
  test::TempDir dir;
  const auto path = dir / "v7.db";
  {
    std::ifstream in(std::filesystem::path(ANIMDEX_SOURCE_DIR) / "tests/db/fixtures/database_v7.sql");
    std::stringstream dump;
    dump << in.rdbuf();
    SQLite::Database v7(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    v7.exec(dump.str());
    v7.exec("PRAGMA user_version = 7; PRAGMA application_id = 1095648344");
  }
  { open_for_writing(path); }
  auto db = open_read_only(path);
  CHECK(test::query_integer(db, "PRAGMA user_version") == kSchemaVersion);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations") == 14);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM kh2_motions") == 13);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM kh2_motions WHERE kind = 'interpolated' AND bone_count = 12 "
                                "AND total_bone_count = 12 AND fps = 30") == 13);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM kh2_motions WHERE animation_id = 3 AND frame_start = 0 "
                                "AND frame_end = 90") == 1);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM pragma_table_info('animations') WHERE name IN ('kind', 'fps')") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM pragma_table_info('bone_tracks') WHERE name = 'state'") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM node_states") == 4);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM mset_slots") == 108);
  CHECK(test::run_named(db, "kh2-motions", {}).rows.size() ==
        static_cast<std::size_t>(test::query_integer(db, "SELECT COUNT(*) FROM mset_slots WHERE is_dummy = 0")));
  CHECK(std::get<std::string>(run_read_only_sql(db, "PRAGMA integrity_check").rows.at(0).at(0)) == "ok");
}
