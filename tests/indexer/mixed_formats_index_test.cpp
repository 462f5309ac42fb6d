// GNT .mot files and LightWave .mot/.env files side by side: each is indexed with its own format.
#include <catch2/catch.hpp>

#include "db/database.h"
#include "db/sql_runner.h"
#include "indexer/pipeline.h"
#include "sample/sample_dump.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;

TEST_CASE("GNT and LightWave files side by side are indexed with their own formats", "[end_to_end][lightwave]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 1;
  options.include_problem_files = false;
  write_sample_dump(dir / "dump", options);
  test::write_text(dir / "dump/files/chr/sas/cam.mot",
                   "LWMO\r\n3\r\n\r\nNumChannels 1\r\nChannel 0\r\n{ Envelope\r\n  2\r\n  Key 0 0 0 0.5 0 0 0 0 0\r\n"
                   "  Key 2 1 1 0 0 0 0.25 0.75 0\r\n  Behaviors 4 3\r\n}\r\n");
  test::write_text(dir / "dump/files/chr/sas/fade.env", "LWEN\n1\n1\n2\n0\n0 0 0 0 0\n1\n30 1 1.5 0 0");
  test::write_text(dir / "dump/rig/take1.txt", "Axes = VPan, VTilt\n1 2\n3 4\n");
  const auto database = dir / "mixed.db";
  const auto summary = test::index_tree(dir / "dump", database);
  CHECK(summary.totals.errors == 0);
  auto db = open_read_only(database);
  CHECK(test::foreign_key_violations(db) == 0);
  auto files = run_read_only_sql(db, "SELECT path, format, status FROM files ORDER BY path");
  std::vector<std::string> lines;
  for (const auto& row : files.rows) lines.push_back(cell_text(row[0]) + " " + cell_text(row[1]) + " " + cell_text(row[2]));
  CHECK(lines == std::vector<std::string>{"files/chr/sas/0000.mot gnt_mot ok", "files/chr/sas/0001.mot gnt_mot ok",
                                          "files/chr/sas/cam.mot lw_mot ok", "files/chr/sas/fade.env lw_env ok",
                                          "rig/take1.txt lw_kuper ok"});
  auto animations = run_read_only_sql(
      db, "SELECT f.path, a.name, a.track_count, a.key_count, a.end_time, a.frame_count FROM animations a "
          "JOIN files f ON f.id = a.file_id WHERE f.format LIKE 'lw%' ORDER BY f.path");
  REQUIRE(animations.rows.size() == 3);
  CHECK(cell_text(animations.rows[0][1]) == "cam");
  CHECK(cell_text(animations.rows[1][1]) == "fade");
  CHECK(cell_text(animations.rows[1][5]) == "31");  // v1: frames 0..30
  CHECK(cell_text(animations.rows[2][1]) == "take1");
  CHECK(cell_text(animations.rows[2][2]) == "2");
  // Channels, values, splines and behaviours.
  auto keys = run_read_only_sql(
      db, "SELECT t.channels, k.key_index, k.time, k.frame, k.x, s.shape, s.linear_flag, s.p1, s.p4, s.p5, "
          "b.pre_behavior, b.post_behavior FROM keyframes k JOIN bone_tracks t ON t.id = k.track_id "
          "JOIN key_splines s ON s.track_id = k.track_id AND s.key_index = k.key_index "
          "JOIN track_behaviors b ON b.track_id = t.id ORDER BY t.channels, k.key_index");
  REQUIRE(keys.rows.size() == 4);
  CHECK(cell_text(keys.rows[0][0]) == "value");
  CHECK(cell_text(keys.rows[1][3]) == "30");
  CHECK(cell_text(keys.rows[1][6]) == "1");
  CHECK(cell_text(keys.rows[1][7]) == "1.5");
  CHECK(cell_text(keys.rows[3][0]) == "x");
  CHECK(cell_text(keys.rows[3][2]) == "1");
  CHECK(cell_text(keys.rows[3][3]).empty());  // v3: no frame
  CHECK(cell_text(keys.rows[3][4]) == "2");
  CHECK(cell_text(keys.rows[3][5]) == "1");
  CHECK(cell_text(keys.rows[3][8]) == "0.25");
  CHECK(cell_text(keys.rows[3][10]) == "4");
  CHECK(cell_text(keys.rows[3][11]) == "3");
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM bone_tracks t JOIN animations a ON a.id = t.animation_id "
                                "JOIN files f ON f.id = a.file_id WHERE f.format LIKE 'lw%' AND t.bone_id IS NOT NULL") == 0);
  // The tension outside [-1, 1] is a warning kept with the file.
  auto warnings = run_read_only_sql(db, "SELECT path, message FROM scan_warnings");
  REQUIRE(warnings.rows.size() == 1);
  CHECK(cell_text(warnings.rows[0][0]) == "files/chr/sas/fade.env");
  CHECK_THAT(cell_text(warnings.rows[0][1]), Catch::Contains("tension 1.5"));
}
