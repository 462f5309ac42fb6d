// A real version-1 database (made with the v1 DDL kept in tests/db/fixtures/) is migrated to the
// current schema by open_for_writing, keeping its data. The v1 and v7 databases' migrated rows are
// checked by tests/sql/migration_v*.test (fixtures migrated-v1, migrated-v7).
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "db/database.h"
#include "db/sql_runner.h"
#include "reference/reference_data.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

// A database made from SQL kept in tests/db/fixtures/, with `setup` run after it.
void database_from_fixture(const std::filesystem::path& path, const char* fixture, const std::string& setup) {
  std::ifstream in(std::filesystem::path(ANIMDEX_SOURCE_DIR) / "tests/db/fixtures" / fixture);
  std::stringstream sql;
  sql << in.rdbuf();
  REQUIRE_FALSE(sql.str().empty());
  SQLite::Database db(path.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  db.exec(sql.str());
  db.exec(setup);
}

// A current database made older by `setup` (which ends by setting the old user_version), then
// opened for writing again, which migrates it; returned open for reading.
SQLite::Database migrated(const std::filesystem::path& path, const std::string& setup) {
  {
    auto db = open_for_writing(path);
    db.exec(setup);
  }
  { auto db = open_for_writing(path); }
  return open_read_only(path);
}

}  // namespace

TEST_CASE("an older schema version is migrated, keeping its data", "[schema][migration]") {
  test::TempDir dir;
  const auto path = dir / "v1.db";
  database_from_fixture(path, "schema_v1.sql",
                        "PRAGMA user_version = 1;"
                        "INSERT INTO dumps(label, root, indexed_at) VALUES ('old', '/r', '2026-01-01T00:00:00Z');"
                        "INSERT INTO files(dump_id, path, format, size, status) VALUES (1, 'a.mot', 'unknown', 3, 'unknown');");
  CHECK_THROWS_WITH(open_read_only(path), Catch::Contains(fmt::format("schema version 1, older than {}", kSchemaVersion)));
  {
    auto db = open_for_writing(path);
    CHECK(db.execAndGet("PRAGMA user_version").getInt() == kSchemaVersion);
  }
  // What the migrated data holds is in tests/sql/migration_v1.test (fixture migrated-v1).
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

TEST_CASE("a version-10 database migrates: game columns (v11), and numbers under the number rule", "[schema][migration]") {
  test::TempDir dir;
  const auto path = dir / "v10.db";
  {
    auto db = open_for_writing(path);
    db.exec("INSERT INTO dumps(label, root, indexed_at) VALUES ('old', '/old', '2026-01-01T00:00:00Z')");
    db.exec("INSERT INTO files(dump_id, path, format, size, mtime_ns, status, character) "
            "VALUES (1, 'files/chr/nar/0000.mot', 'gnt_mot', 1, 0, 'ok', 'nar')");
    // What v10 stored: the float32 0.155774 widened exactly, printed with 17 digits.
    db.exec("INSERT INTO animations(file_id, slot, motion_id, play_speed, end_time, frame_count, track_count, "
            "key_count, content_hash) VALUES (1, 0, 0, 0.15577399730682373, 1.25, 75, 0, 0, '0')");
    db.exec("DROP VIEW animation_overview; CREATE VIEW animation_overview AS SELECT 1 AS old_shape");
    db.exec("ALTER TABLE files DROP COLUMN stored_hash; PRAGMA user_version = 10");
  }
  {
    auto db = open_for_writing(path);
    load_reference_tables(db, ReferenceData::embedded());  // as every index run does
  }
  auto db = open_read_only(path);
  CHECK(test::query_integer(db, "PRAGMA user_version") == kSchemaVersion);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations WHERE play_speed = 0.155774") == 1);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animation_overview WHERE game = 'gnt4'") == 1);
  CHECK(std::get<std::string>(run_read_only_sql(db, "PRAGMA integrity_check").rows.at(0).at(0)) == "ok");
}

TEST_CASE("a version-11 database migrates: the Nitro model tables and the nitro_links view (12)", "[schema][migration]") {
  test::TempDir dir;
  auto db = migrated(dir / "v11.db",
                     "DROP VIEW nitro_links; DROP TABLE nitro_model_links; DROP TABLE model_nodes; "
                     "DROP TABLE model_materials; DROP TABLE nitro_models; DROP TABLE pattern_names; "
                     "ALTER TABLE files DROP COLUMN stored_hash; PRAGMA user_version = 11");
  CHECK(test::query_integer(db, "PRAGMA user_version") == kSchemaVersion);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM sqlite_schema WHERE name IN ('nitro_models', 'model_nodes', "
                                "'model_materials', 'nitro_model_links', 'pattern_names', 'nitro_links')") == 6);
}

TEST_CASE("a version-12 database migrates: bone_tracks_by_bone holds the bone's name (13)", "[schema][migration]") {
  test::TempDir dir;
  auto db = migrated(dir / "v12.db",
                     "DROP INDEX bone_tracks_by_bone; CREATE INDEX bone_tracks_by_bone ON bone_tracks(bone_id, "
                     "animation_id); ALTER TABLE files DROP COLUMN stored_hash; PRAGMA user_version = 12");
  CHECK(test::query_integer(db, "PRAGMA user_version") == kSchemaVersion);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM pragma_index_info('bone_tracks_by_bone')") == 3);
  CHECK(std::get<std::string>(run_read_only_sql(db, "SELECT name FROM pragma_index_info('bone_tracks_by_bone') "
                                                    "WHERE seqno = 2").rows.at(0).at(0)) == "bone_name");
}

TEST_CASE("a version-13 database migrates: files.compression keeps its values and takes a new codec's id (14)",
          "[schema][migration]") {
  test::TempDir dir;
  const auto path = dir / "v13.db";
  {
    auto db = migrated(path,
                       "DROP VIEW reuse_groups; DROP VIEW track_reuse; DROP VIEW animation_catalog; DROP VIEW bone_usage; "
                       "DROP VIEW animation_overview; DROP VIEW file_catalog; DROP VIEW nitro_links; "
                       "ALTER TABLE files DROP COLUMN compression; "
                       "ALTER TABLE files ADD COLUMN compression TEXT CHECK (compression IN ('none', 'prs', 'lz10', "
                       "'lz11', 'kh2')); INSERT INTO dumps(id, label, root, indexed_at) VALUES (1, 'd', '/d', 'now'); "
                       "INSERT INTO files(id, dump_id, path, format, size, status, compression) "
                       "VALUES (1, 1, 'a.fpk/x.mot', 'gnt_mot', 4, 'ok', 'prs'); ALTER TABLE files DROP COLUMN stored_hash; PRAGMA user_version = 13");
    CHECK(test::query_integer(db, "PRAGMA user_version") == kSchemaVersion);
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE compression = 'prs'") == 1);
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM file_catalog") == 1);
  }
  auto db = open_for_writing(path);
  // A codec a container folder adds later is stored as it is: no CHECK lists the ids (issue 36).
  db.exec("INSERT INTO files(id, dump_id, path, format, size, status, compression) "
          "VALUES (2, 1, 'a.fpk/y.mot', 'gnt_mot', 4, 'ok', 'a_new_codec')");
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE compression IS NOT NULL") == 2);
}

TEST_CASE("a version-14 database migrates: model_nodes keeps its rows, takes KH2 bones (no name, Euler angles) (15)",
          "[schema][migration]") {
  test::TempDir dir;
  const auto path = dir / "v14.db";
  {
    auto db = migrated(path,
                       "DROP VIEW IF EXISTS kh2_links; DROP TABLE IF EXISTS kh2_model_links; DROP TABLE IF EXISTS kh2_models; "
                       "DROP TABLE model_nodes; "
                       "CREATE TABLE model_nodes (file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE, "
                       "model_index INTEGER NOT NULL, node_index INTEGER NOT NULL, name TEXT NOT NULL, parent INTEGER, "
                       "visible INTEGER, flag INTEGER NOT NULL, t_x REAL NOT NULL, t_y REAL NOT NULL, t_z REAL NOT NULL, "
                       "rotation TEXT NOT NULL, q_x REAL NOT NULL, q_y REAL NOT NULL, q_z REAL NOT NULL, q_w REAL NOT NULL, "
                       "s_x REAL NOT NULL, s_y REAL NOT NULL, s_z REAL NOT NULL, "
                       "PRIMARY KEY (file_id, model_index, node_index)) WITHOUT ROWID; "
                       "INSERT INTO dumps(id, label, root, indexed_at) VALUES (1, 'd', '/d', 'now'); "
                       "INSERT INTO files(id, dump_id, path, format, size, status) VALUES (1, 1, 'door.nsbmd', 'nsbmd', 4, 'ok'); "
                       "INSERT INTO model_nodes VALUES (1, 0, 0, 'door_root', NULL, 1, 7, 0, 0, 0, 'identity', 0, 0, 0, 1, 1, 1, 1); "
                       "ALTER TABLE files DROP COLUMN stored_hash; PRAGMA user_version = 14");
    CHECK(test::query_integer(db, "PRAGMA user_version") == kSchemaVersion);
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_nodes WHERE name = 'door_root' AND e_x IS NULL") == 1);
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM pragma_table_info('model_nodes') WHERE name IN ('e_x', 'e_y', 'e_z')") == 3);
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM kh2_links") == 0);
  }
  auto db = open_for_writing(path);
  // A KH2 bone has no name and keeps its Euler angles.
  db.exec("INSERT INTO model_nodes (file_id, model_index, node_index, name, parent, flag, t_x, t_y, t_z, rotation, "
          "q_x, q_y, q_z, q_w, s_x, s_y, s_z, e_x, e_y, e_z) "
          "VALUES (1, 1, 0, NULL, NULL, 0, 0, 102.6, 0, 'euler_xyz', 0, 0, 0, 1, 1, 1, 1, 0, 4.71239, 4.71239)");
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_nodes WHERE name IS NULL") == 1);
}

TEST_CASE("a version-15 database migrates: DS fixed point is stored exactly, float32 data is left alone (16)",
          "[schema][migration]") {
  test::TempDir dir;
  const auto path = dir / "v15.db";
  auto db = migrated(
      path,
      "INSERT INTO dumps(id, label, root, indexed_at) VALUES (1, 'd', '/d', 'now'); "
      "INSERT INTO files(id, dump_id, path, format, size, status) VALUES (1, 1, 'a.nsbmd', 'nsbmd', 4, 'ok'), "
      "(2, 1, 'b.nsbca', 'nsbca', 4, 'ok'), (3, 1, 'c.mot', 'gnt_mot', 4, 'ok'), (4, 1, 'P.mdlx', 'kh2_mdlx', 4, 'ok'); "
      // As v15 stored them: -1033.616943359375 (fx32) under the float32 rule as -1033.617.
      "INSERT INTO model_nodes (file_id, model_index, node_index, name, flag, t_x, t_y, t_z, rotation, q_x, q_y, q_z, "
      "q_w, s_x, s_y, s_z) VALUES (1, 0, 4, 'n4', 0, -1033.617, 0.1, 2, 'identity', 0.7071068, 0, 0, 0.7071068, 1, 1, 1), "
      "(4, 0, 0, NULL, 0, 102.6, 0, 0, 'euler_xyz', 0, 0, 0, 1, 1, 1, 1); "
      "INSERT INTO animations(id, file_id, track_count, key_count, content_hash, shape_hash) VALUES "
      "(1, 2, 2, 2, 'h', 's'), (2, 3, 1, 1, 'h', 's'); "
      "INSERT INTO bone_tracks(id, animation_id, track_index, flags, track_flags, channels, value_encoding, key_count, "
      "content_hash) VALUES (1, 1, 0, 0, 1, 'T', 'fx32', 1, 'h'), (2, 1, 1, 0, 8, 'R', 'rotation_index', 1, 'h'), "
      "(3, 2, 0, 0, 1, 'T', 'f32x4', 1, 'h'); "
      "INSERT INTO keyframe_rows(track_id, key_index, time, frame, x, y, z, w) VALUES "
      "(1, 0, 0, 0, -1033.617, 1, 2, NULL), (2, 0, 0, 0, 0.7071068, 0, 0, 0.7071068), (3, 0, 0.1, 6, 1.35, 0, 0, NULL); "
      "ALTER TABLE files DROP COLUMN stored_hash; PRAGMA user_version = 15");
  CHECK(test::query_integer(db, "PRAGMA user_version") == kSchemaVersion);
  const auto value = [&](const std::string& sql) {
    SQLite::Statement statement(db, sql);
    REQUIRE(statement.executeStep());
    return statement.getColumn(0).getDouble();
  };
  CHECK(value("SELECT t_x FROM model_nodes WHERE file_id = 1") == -1033.616943359375);
  CHECK(value("SELECT t_y FROM model_nodes WHERE file_id = 1") == static_cast<double>(0.1F));
  CHECK(value("SELECT q_x FROM model_nodes WHERE file_id = 1") == 0.7071068);  // a float32 quaternion: kept
  CHECK(value("SELECT t_x FROM model_nodes WHERE file_id = 4") == 102.6);       // KH2 float32: kept
  CHECK(value("SELECT x FROM keyframe_rows WHERE track_id = 1") == -1033.616943359375);
  CHECK(value("SELECT x FROM keyframe_rows WHERE track_id = 2") == 0.7071068);
  CHECK(value("SELECT x FROM keyframe_rows WHERE track_id = 3") == 1.35);
  // The key tables read each as the writer now stores it.
  CHECK(value("SELECT x FROM keyframes WHERE track_id = 1") == -1033.616943359375);
  CHECK(value("SELECT x FROM keyframes WHERE track_id = 3") == 1.35);
}

TEST_CASE("a version-16 database migrates: files gains stored_hash, empty until the next index (17)",
          "[schema][migration]") {
  test::TempDir dir;
  auto db = migrated(dir / "v16.db",
                     "INSERT INTO dumps(id, label, root, indexed_at) VALUES (1, 'd', '/d', 'now'); "
                     "INSERT INTO files(id, dump_id, path, format, size, status, compression, stored_size) "
                     "VALUES (1, 1, 'a.fpk/x.mot', 'gnt_mot', 4, 'ok', 'prs', 3); "
                     "ALTER TABLE files DROP COLUMN stored_hash; PRAGMA user_version = 16");
  CHECK(test::query_integer(db, "PRAGMA user_version") == kSchemaVersion);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path = 'a.fpk/x.mot' AND compression = 'prs' "
                                "AND stored_size = 3 AND stored_hash IS NULL") == 1);
}
