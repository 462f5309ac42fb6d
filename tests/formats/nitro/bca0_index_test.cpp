// NSBCA files in the index: every real file ok with its node states and decoded samples; a
// writer-made file with two animations and steps 2/4 next to a GNT dump.
#include <catch2/catch.hpp>

#include "db/database.h"
#include "db/sql_runner.h"
#include "formats/nitro/bca0_builder.h"
#include "formats/nitro/bca0_writer.h"
#include "indexer/pipeline.h"
#include "sample/sample_dump.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::nsbca;

TEST_CASE("every real NSBCA file indexes with its node states and decoded samples", "[end_to_end][nsbca][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared/corpus/real not found: skipping the real NSBCA files");
  test::TempDir dir;
  const auto index = test::index_options(*shared / "corpus/real/nsbca", dir / "nsbca.db");
  const auto summary = run_index(index);
  CHECK(summary.totals.files == 24);
  CHECK(summary.totals.ok == 24);
  CHECK(summary.totals.animations == 24);
  auto db = open_read_only(index.database);
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM scan_warnings") == 0);
  // SOURCES.md: c_demo_D has 90 frames, 6 nodes, T fx16/fx32 1/3, S fx16 3, R animated 1 / const 2.
  const auto nodes = test::run_named(db, "nsbca-nodes", {{"file", "ship_demo"}});
  CHECK(test::table_lines(nodes, "|", 2) == std::vector<std::string>{
                                  "c_demo_D|90|0||0|0x00003B3A|identity|const|identity|0|1|0",
                                  "c_demo_D|90|1||1|0x01003B78|const|identity|identity|1|0|0",
                                  "c_demo_D|90|2||2|0x02003B78|const|identity|identity|1|0|0",
                                  "c_demo_D|90|3||3|0x03003170|x=animated y=const z=const|identity|"
                                  "x=animated y=const z=const|90|0|90",
                                  "c_demo_D|90|4||4|0x04001130|x=animated y=const z=const|const|"
                                  "x=animated y=const z=animated|90|1|90",
                                  "c_demo_D|90|5||5|0x05003A20|x=animated y=animated z=const|animated|identity|90|90|0"});
  // Decoded values: node 4's constant rotation is the DS matrix [0 0 1; 0.5 0.866 0; -0.866 0.5 0],
  // whose quaternion (row-vector convention) is (-0.183, -0.683, -0.183, 0.683).
  auto rotation = run_read_only_sql(
      db, "SELECT k.x, k.y, k.z, k.w FROM keyframes k JOIN bone_tracks t ON t.id = k.track_id JOIN animations a "
          "ON a.id = t.animation_id WHERE a.name = 'c_demo_D' AND t.bone_id = 4 AND t.channels = 'R'");
  REQUIRE(rotation.rows.size() == 1);
  CHECK(std::get<double>(rotation.rows[0][0]) == Approx(-0.1830).margin(1e-3));
  CHECK(std::get<double>(rotation.rows[0][1]) == Approx(-0.6830).margin(1e-3));
  CHECK(std::get<double>(rotation.rows[0][2]) == Approx(-0.1830).margin(1e-3));
  CHECK(std::get<double>(rotation.rows[0][3]) == Approx(0.6830).margin(1e-3));
  // Node 3's translation at frame 10 (fx32 / 4096), as `animdex pose --frame 10` prints it.
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes k JOIN bone_tracks t ON t.id = k.track_id JOIN "
                                "animations a ON a.id = t.animation_id WHERE a.name = 'c_demo_D' AND t.bone_id = 3 "
                                "AND t.channels = 'T' AND k.frame = 10 AND abs(k.x + 86.2107) < 1e-4 AND k.y = 2") == 1);
  // Per-file frame and node counts (SOURCES.md), straight from the database.
  CHECK(test::query_integer(db, "SELECT frame_count FROM animations WHERE name = 'kurotama'") == 601);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM node_states n JOIN animations a ON a.id = n.animation_id "
                                "WHERE a.name = 'kurotama'") == 42);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM node_states n JOIN animations a ON a.id = n.animation_id "
                                "WHERE a.name = 'lugia01_10t'") == 32);
}

TEST_CASE("a writer-made NSBCA with two animations and steps 2 and 4 next to a GNT dump", "[end_to_end][nsbca]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 1;
  options.include_problem_files = false;
  write_sample_dump(dir / "dump", options);
  NsbcaFile file;
  for (const auto& [name, step] : std::vector<std::pair<std::string, int>>{{"open", 2}, {"close", 4}}) {
    JointAnimation animation;
    animation.name = name;
    animation.frame_count = 9;
    animation.rot5 = {encode_rot5(rotation_about_z(0)), encode_rot5(rotation_about_z(90))};
    NodeAnimation root;  // identity
    root.tag = tag_for(root, 0);
    NodeAnimation door;
    std::vector<double> values;
    for (std::size_t s = 0; s < sample_count(9, step); ++s) values.push_back(0.5 * static_cast<double>(s));
    door.translation = {animated_axis(values, 9, step, true, false), constant_axis(1, false), constant_axis(0, false)};
    door.rotation = animated_rotation(std::vector<std::uint16_t>(sample_count(9, step), 1), 9, step);
    door.scale = {base_axis(), base_axis(), base_axis()};
    door.tag = tag_for(door, 1);
    animation.nodes = {root, door};
    file.animations.push_back(animation);
  }
  test::write_bytes(dir / "dump/ds/door.nsbca", write_nsbca(file));
  auto broken = write_nsbca(file);
  broken.resize(broken.size() - 6);
  test::write_bytes(dir / "dump/ds/broken.nsbca", broken);

  const auto index = test::index_options(dir / "dump", dir / "mixed.db");
  const auto summary = run_index(index);
  CHECK(summary.totals.errors == 1);
  auto db = open_read_only(index.database);
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(test::sql_lines(db, "SELECT path, format, status FROM files WHERE path LIKE 'ds/%' ORDER BY path") ==
        std::vector<std::string>{"ds/broken.nsbca|nsbca|error", "ds/door.nsbca|nsbca|ok"});
  CHECK_THAT(cell_text(run_read_only_sql(db, "SELECT error FROM files WHERE path = 'ds/broken.nsbca'").rows.at(0)[0]),
             Catch::Contains("file size at most the real length"));
  CHECK(test::table_lines(test::run_named(db, "nsbca-nodes", {{"file", "door"}}), "|", 2) ==
        std::vector<std::string>{"open|9|0||0|0x00000001|identity|identity|identity|0|0|0",
                                 "open|9|1||1|0x01000430|x=animated y=const z=const|animated|base|5|5|0",
                                 "close|9|0||0|0x00000001|identity|identity|identity|0|0|0",
                                 "close|9|1||1|0x01000430|x=animated y=const z=const|animated|base|3|3|0"});
  // Samples sit at their frames: step 4 over 9 frames stores frames 0, 4 and 8.
  CHECK(test::sql_lines(db, "SELECT k.frame, k.x, k.y FROM keyframes k JOIN bone_tracks t ON t.id = "
                              "k.track_id JOIN animations a ON a.id = t.animation_id WHERE a.name = 'close' "
                              "AND t.channels = 'T' ORDER BY k.key_index") ==
        std::vector<std::string>{"0|0|1", "4|0.5|1", "8|1|1"});
  // The door node (index 1) is NSBCA node 1, never GNT bone 1: each row says whose numbering it is.
  CHECK(test::table_lines(test::run_named(db, "bone-users", {{"bone", "1"}})) ==
        std::vector<std::string>{"gnt4|sas|X|11", "nsbca|ds/door.nsbca||2"});
  CHECK(test::table_lines(test::run_named(db, "bone-users", {{"bone", "1"}, {"game", "nsbca"}})) ==
        std::vector<std::string>{"nsbca|ds/door.nsbca||2"});
}
