// KH2 motion sets next to a GNT dump: statuses, slot tables, resolution, the named queries, and
// corrupt KH2 files recorded as errors while the scan goes on.
#include <catch2/catch.hpp>

#include "db/database.h"
#include "db/sql_runner.h"
#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_fixture.h"
#include "indexer/pipeline.h"
#include "sample/sample_dump.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

std::vector<std::string> rows_as_lines(const ResultTable& table) { return test::table_lines(table, " "); }

}  // namespace

TEST_CASE("a GNT dump mixed with KH2 obj/*.mset files: statuses, slots, dummy-slots", "[end_to_end][kh2]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 1;
  options.include_problem_files = false;
  write_sample_dump(dir / "dump", options);
  // Player set: IDLE has slots 0 and 2, WALK only 7 (a group with three dummies).
  test::write_bytes(dir / "dump/obj/P_TEST.mset", test::motion_set("ADADDDDA", 1));
  test::write_bytes(dir / "dump/obj/M_TEST.mset", test::motion_set("DAD", 0));
  auto corrupt = test::motion_set("AD", 1);
  corrupt.resize(corrupt.size() - 40);  // cuts into slot 0's motion
  test::write_bytes(dir / "dump/obj/P_CUT.mset", corrupt);
  test::write_bytes(dir / "dump/anm/a.anb", test::anb_of(test::interpolated_motion(16, {2, 118 % 16})));

  const auto database = dir / "kh2.db";
  const auto summary = test::index_tree(dir / "dump", database);
  CHECK(summary.totals.errors == 1);
  CHECK(summary.totals.ok == 5);
  auto db = open_read_only(database);
  CHECK(test::foreign_key_violations(db) == 0);

  CHECK(rows_as_lines(run_read_only_sql(db, "SELECT path, format, status FROM files ORDER BY path")) ==
        std::vector<std::string>{"anm/a.anb kh2_anb ok", "files/chr/sas/0000.mot gnt_mot ok",
                                 "files/chr/sas/0001.mot gnt_mot ok", "obj/M_TEST.mset kh2_mset ok",
                                 "obj/P_CUT.mset kh2_mset error", "obj/P_TEST.mset kh2_mset ok"});
  const auto error = run_read_only_sql(db, "SELECT error, error_offset FROM files WHERE status = 'error'");
  CHECK_THAT(cell_text(error.rows.at(0)[0]), Catch::Contains("entry 0 data (620 bytes at 0x30) within the BAR's 628 bytes"));
  CHECK(cell_text(error.rows.at(0)[1]) == "24");  // the entry's offset field, 0x18

  // dummy-slots: exactly the dummies, each with where the engine goes instead.
  CHECK(rows_as_lines(test::run_named(db, "dummy-slots")) ==
        std::vector<std::string>{
            "default obj/M_TEST.mset  0 0 IDLE  -1", "default obj/M_TEST.mset  2 2 RUN  -1",
            "default obj/P_TEST.mset  1 0 IDLE 1 0", "default obj/P_TEST.mset  3 0 IDLE 3 2",
            "default obj/P_TEST.mset  4 1 WALK 0 7", "default obj/P_TEST.mset  5 1 WALK 1 7",
            "default obj/P_TEST.mset  6 1 WALK 2 7"});
  // The doc numbering is a parameter away (identical below 74).
  const auto doc = test::run_named(db, "dummy-slots", {{"numbering", std::string("doc")}});
  CHECK(cell_text(doc.rows.at(0)[5]) == "IDLE");

  const auto fallbacks = rows_as_lines(test::run_named(db, "kh2-fallbacks", {{"file", std::string("P_TEST")}}));
  CHECK(fallbacks == std::vector<std::string>{
                         "default obj/P_TEST.mset  0 IDLE 1 battle, no weapon 1 0 A0",
                         "default obj/P_TEST.mset  0 IDLE 3 field, weapon 3 2 A2",
                         "default obj/P_TEST.mset  1 WALK 0 battle, weapon 4 7 A7",
                         "default obj/P_TEST.mset  1 WALK 1 battle, no weapon 5 7 A7",
                         "default obj/P_TEST.mset  1 WALK 2 field, no weapon 6 7 A7"});

  const auto motions = test::run_named(db, "kh2-motions", {{"file", std::string("P_TEST")}});
  REQUIRE(motions.rows.size() == 3);
  CHECK(cell_text(motions.rows[2][3]) == "7");             // slot
  CHECK(cell_text(motions.rows[2][7]) == "WALK");          // motion_name
  CHECK(cell_text(motions.rows[2][8]) == "3");             // state
  CHECK(cell_text(motions.rows[2][11]) == "interpolated"); // kind
  CHECK(cell_text(motions.rows[2][12]) == "32");           // bone_count
  CHECK(cell_text(motions.rows[2][17]) == "1");            // track_count
  CHECK(cell_text(motions.rows[2][18]) == "2");            // key_count

  // A KH2 object's motion set names its character; bone-users answers for GNT and KH2 alike, each row
  // under its game (bone 2 is GNT's "Z"; the KH2 skeleton's bones have no names in the reference).
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path = 'obj/P_TEST.mset' AND character = 'P_TEST'")
        == 1);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path = 'anm/a.anb' AND character IS NULL") == 1);
  CHECK(rows_as_lines(test::run_named(db, "bone-users", {{"bone", "2"}})) ==
        std::vector<std::string>{"gnt4 sas Z 11", "kh2 P_TEST  1", "kh2 anm/a.anb  1"});
  CHECK(rows_as_lines(test::run_named(db, "bone-users", {{"bone", "2"}, {"game", "kh2"}})) ==
        std::vector<std::string>{"kh2 P_TEST  1", "kh2 anm/a.anb  1"});
  // "Which motions animate bone N" is one query across GNT and KH2: slot 7's curve is on bone 7.
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM bone_usage WHERE bone_id = 7 AND path = 'obj/P_TEST.mset' "
                                "AND animation_name = 'WALK' AND channels = 'Rx'") == 1);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes k JOIN bone_tracks t ON t.id = k.track_id "
                                "JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id "
                                "WHERE f.path = 'anm/a.anb' AND k.x = 6.5 AND k.time = 10") == 1);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM key_splines s JOIN bone_tracks t ON t.id = s.track_id "
                                "JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id "
                                "WHERE f.path = 'anm/a.anb' AND s.shape = 1 AND s.p1 = 0.25 AND s.p2 = -0.25") == 2);
}

TEST_CASE("every real KH2 file indexes with status ok", "[end_to_end][kh2][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared/corpus/real not found: skipping the real KH2 files");
  test::TempDir dir;
  const auto database = dir / "real.db";
  const auto summary = test::index_tree(*shared / "corpus/real/kh2-mset", database);
  CHECK(summary.totals.files == 26);
  CHECK(summary.totals.ok == 26);
  auto db = open_read_only(database);
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(rows_as_lines(run_read_only_sql(db, "SELECT format, COUNT(*) FROM files GROUP BY 1 ORDER BY 1")) ==
        std::vector<std::string>{"kh2_anb 5", "kh2_bar 1", "kh2_motion 2", "kh2_mset 18"});
  // P_EX100.mset: 993 slots, 892 dummies, 86 distinct motions; Player resolution for 249 motions.
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM mset_slots s JOIN files f ON f.id = s.file_id "
                                "WHERE f.path LIKE '%/P_EX100.mset'") == 993);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM mset_slots s JOIN files f ON f.id = s.file_id "
                                "WHERE f.path LIKE '%/P_EX100.mset' AND is_dummy = 1") == 892);
  CHECK(test::query_integer(db, "SELECT animation_count FROM files WHERE path LIKE '%/P_EX100.mset'") == 86);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM mset_resolution r JOIN files f ON f.id = r.file_id "
                                "WHERE f.path LIKE '%/P_EX100.mset'") == 249 * 4);
  // dummy-slots lists every dummy of a motion set and nothing else.
  CHECK(static_cast<std::int64_t>(test::run_named(db, "dummy-slots").rows.size()) ==
        test::query_integer(db, "SELECT COUNT(*) FROM mset_slots WHERE is_dummy = 1 AND set_type IS NOT NULL"));
  // interpolated.motion in rows: 220 curves as tracks, 2020 keys (curves share table entries).
  CHECK(test::query_integer(db, "SELECT track_count FROM animations a JOIN files f ON f.id = a.file_id "
                                "WHERE f.path LIKE '%interpolated.motion'") == 220);
  CHECK(test::query_integer(db, "SELECT key_count FROM animations a JOIN files f ON f.id = a.file_id "
                                "WHERE f.path LIKE '%interpolated.motion'") == 2020);
}
