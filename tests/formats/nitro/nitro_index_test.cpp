// DS models and animations in the index: the join of each animation to its model (same name, else
// the one model with its node count, never a guess between several), node names on NSBCA/NSBVA
// tracks, `bone-users` by name; and the 9 real NARCs against the note's census.
#include <catch2/catch.hpp>

#include "db/database.h"
#include "db/sql_runner.h"
#include "formats/nitro/bmd0_builder.h"
#include "formats/nitro/bva0_builder.h"
#include "formats/nitro/bca0_builder.h"
#include "formats/nitro/bca0_writer.h"
#include "containers/nds/nds_writer.h"
#include "indexer/pipeline.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

// A BCA0 animation of `node_count` identity nodes (tag i names node i).
std::vector<std::byte> joint_animation(const std::string& name, int node_count) {
  nsbca::NsbcaFile file;
  nsbca::JointAnimation animation;
  animation.name = name;
  animation.frame_count = 2;
  for (int node = 0; node < node_count; ++node) {
    nsbca::NodeAnimation joint;
    joint.translation = {nsbca::constant_axis(node, false), nsbca::constant_axis(0, false),
                         nsbca::constant_axis(0, false)};
    joint.tag = nsbca::tag_for(joint, node);
    animation.nodes.push_back(joint);
  }
  file.animations.push_back(animation);
  return nsbca::write_nsbca(file);
}

std::vector<std::byte> model_file(const std::string& name, const std::vector<std::string>& nodes) {
  std::vector<int> parents{-1};
  for (std::size_t n = 1; n < nodes.size(); ++n) parents.push_back(0);
  nitro::Bmd0File file;
  file.models.push_back(nitro::tree_model(name, nodes, parents));
  return nitro::write_bmd0(file);
}

std::vector<std::byte> visibility(const std::string& name, int node_count) {
  nitro::Bva0File file;
  file.animations.push_back(nitro::visibility_animation(name, {std::vector<bool>(node_count, true)}));
  return nitro::write_bva0(file);
}

}  // namespace

TEST_CASE("each DS animation is joined to its model by name, else by a unique node count", "[nitro][end_to_end]") {
  test::TempDir dir;
  const auto root = dir / "dump";
  // Folder a: a model per name; `door` has fewer nodes than its model, `lamp` more (so its model
  // does not fit, and no other is guessed: a model of its name exists).
  test::write_bytes(root / "a/door.nsbmd", model_file("door", {"root", "hinge", "handle"}));
  test::write_bytes(root / "a/door.nsbca", joint_animation("door", 2));
  test::write_bytes(root / "a/lamp.nsbmd", model_file("lamp", {"base", "bulb"}));
  test::write_bytes(root / "a/lamp.nsbca", joint_animation("lamp", 3));
  test::write_bytes(root / "a/lamp.nsbva", visibility("lamp", 2));
  // A BVA0 with fewer nodes than its model: linked by name, not exact (the model's third node
  // keeps its default visibility).
  test::write_bytes(root / "a/door.nsbva", visibility("door", 2));
  // `spin` has no model of its name: the one model with 2 nodes is `lamp`.
  test::write_bytes(root / "a/spin.nsbca", joint_animation("spin", 2));
  // Folder b: two models with 2 nodes, so a nameless match is never guessed; folder a's are not seen.
  test::write_bytes(root / "b/one.nsbmd", model_file("one", {"x", "y"}));
  test::write_bytes(root / "b/two.nsbmd", model_file("two", {"p", "q"}));
  test::write_bytes(root / "b/wave.nsbca", joint_animation("wave", 2));
  test::write_bytes(root / "b/door.nsbca", joint_animation("door", 2));
  IndexOptions index;
  index.roots = {root};
  index.database = dir / "nitro.db";
  const auto summary = run_index(index);
  CHECK(summary.totals.ok == 11);
  auto db = open_read_only(index.database);
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(test::sql_lines(db, "SELECT file, animation, COALESCE(model_file, '-'), COALESCE(model, '-'), method, "
                    "COALESCE(exact, '-') FROM nitro_links ORDER BY file") ==
        std::vector<std::string>{"a/door.nsbca|door|a/door.nsbmd|door|name|0",
                                 "a/door.nsbva|door|a/door.nsbmd|door|name|0",
                                 "a/lamp.nsbca|lamp|-|-|none|-",
                                 "a/lamp.nsbva|lamp|a/lamp.nsbmd|lamp|name|1",
                                 "a/spin.nsbca|spin|a/lamp.nsbmd|lamp|node_count|1",
                                 "b/door.nsbca|door|-|-|none|-",
                                 "b/wave.nsbca|wave|-|-|none|-"});
  SECTION("what the note asks to warn about is a scan warning of the animation's file") {
    CHECK(test::sql_lines(db, "SELECT path, message FROM scan_warnings WHERE message LIKE 'model link: %'") ==
          std::vector<std::string>{"a/lamp.nsbca|model link: animation 'lamp' has 3 nodes, more than its model's 2; "
                                   "not linked"});
  }
  SECTION("tracks carry the linked model's node names, NULL without a model") {
    CHECK(test::sql_lines(db, "SELECT f.path, t.bone_id, COALESCE(t.bone_name, '-') FROM bone_tracks t "
                      "JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id "
                      "WHERE f.path LIKE '%door.nsbca' OR f.path LIKE '%.nsbva' ORDER BY f.path, t.bone_id") ==
          std::vector<std::string>{"a/door.nsbca|0|root", "a/door.nsbca|1|hinge", "a/door.nsbva|0|root",
                                   "a/door.nsbva|1|hinge",
                                   "a/lamp.nsbva|0|base", "a/lamp.nsbva|1|bulb",
                                   "b/door.nsbca|0|-", "b/door.nsbca|1|-"});
  }
  SECTION("bone-users answers by a bone's name") {
    const auto users = test::run_named(db, "bone-users", {{"bone", "hinge"}});
    // door's own model names node 1 hinge, for its NSBCA and its NSBVA.
    REQUIRE(users.rows.size() == 2);
    CHECK(cell_text(users.rows[0][0]) == "nsbca");
    CHECK(cell_text(users.rows[0][1]) == "a/door.nsbca");
    CHECK(cell_text(users.rows[0][2]) == "hinge");
    CHECK(cell_text(users.rows[1][0]) == "nsbva");
    CHECK(cell_text(users.rows[1][1]) == "a/door.nsbva");
    CHECK(test::run_named(db, "bone-users", {{"bone", "1"}}).rows.size() == 7);  // 5 nsbca files, 2 nsbva
  }
  SECTION("re-indexing an unchanged tree keeps links, names and warnings (the post-index step is skipped)") {
    const auto links = test::sql_lines(db, "SELECT file, method FROM nitro_links ORDER BY file");
    const auto names = test::sql_lines(db, "SELECT id, COALESCE(bone_name, '-') FROM bone_tracks ORDER BY id");
    {  // A marker the post-index step would overwrite: it stays, so the step did not run.
      SQLite::Database marked(index.database.string(), SQLite::OPEN_READWRITE);
      marked.exec("UPDATE nitro_model_links SET exact = 7 WHERE exact = 1");
    }
    const auto again = run_index(index);
    CHECK(again.totals.unchanged == 11);
    CHECK(again.totals.parsed == 0);
    auto reread = open_read_only(index.database);
    CHECK(test::sql_lines(reread, "SELECT file, method FROM nitro_links ORDER BY file") == links);
    CHECK(test::sql_lines(reread, "SELECT id, COALESCE(bone_name, '-') FROM bone_tracks ORDER BY id") == names);
    CHECK(test::query_integer(reread, "SELECT COUNT(*) FROM scan_warnings WHERE message LIKE 'model link: %'") == 1);
    CHECK(test::query_integer(reread, "SELECT COUNT(*) FROM nitro_model_links WHERE exact = 7") == 2);
  }
  SECTION("re-indexing after the model is gone unlinks and unnames") {
    std::filesystem::remove(root / "a/door.nsbmd");
    run_index(index);
    auto again = open_read_only(index.database);
    CHECK(test::sql_lines(again, "SELECT method FROM nitro_links WHERE file = 'a/door.nsbca'") ==
          std::vector<std::string>{"node_count"});  // now the only 2-node model there is lamp
    CHECK(test::sql_lines(again, "SELECT t.bone_name FROM bone_tracks t JOIN animations a ON a.id = t.animation_id "
                         "JOIN files f ON f.id = a.file_id WHERE f.path = 'a/door.nsbca' ORDER BY t.bone_id") ==
          std::vector<std::string>{"base", "bulb"});
  }
}

TEST_CASE("in a DS ROM an animation looks for its model in its own folder", "[nitro][end_to_end][nds]") {
  test::TempDir dir;
  // Two folders of one ROM, each with a model `door` and its animation: each finds its own (the ROM
  // as one place would see two models named door and take neither).
  const auto rom = nds::build_nds({{"data/red/door.nsbmd", model_file("door", {"root", "red_hinge"})},
                                   {"data/red/door.nsbca", joint_animation("door", 2)},
                                   {"data/blue/door.nsbmd", model_file("door", {"root", "blue_hinge"})},
                                   {"data/blue/door.nsbca", joint_animation("door", 2)}});
  test::write_bytes(dir / "game/game.nds", rom);
  IndexOptions index;
  index.roots = {dir / "game"};
  index.database = dir / "rom.db";
  run_index(index);
  auto db = open_read_only(index.database);
  CHECK(test::sql_lines(db, "SELECT file, model_file, method FROM nitro_links ORDER BY file") ==
        std::vector<std::string>{"game.nds/data/blue/door.nsbca|game.nds/data/blue/door.nsbmd|name",
                                 "game.nds/data/red/door.nsbca|game.nds/data/red/door.nsbmd|name"});
  CHECK(test::sql_lines(db, "SELECT f.path, t.bone_name FROM bone_tracks t JOIN animations a ON a.id = t.animation_id "
                            "JOIN files f ON f.id = a.file_id WHERE t.bone_id = 1 ORDER BY f.path") ==
        std::vector<std::string>{"game.nds/data/blue/door.nsbca|blue_hinge", "game.nds/data/red/door.nsbca|red_hinge"});
}

TEST_CASE("the 9 real NARCs: models, links and names as the note's census says", "[nitro][end_to_end][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared/corpus/real not found: skipping the real NARCs");
  test::TempDir dir;
  IndexOptions index;
  index.roots = {*shared / "corpus/real/containers"};
  index.database = dir / "narcs.db";
  run_index(index);
  auto db = open_read_only(index.database);
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE format = 'nsbmd' AND status = 'ok'") == 44);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE format = 'nsbva' AND status = 'ok'") == 2);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE format = 'nsbca' AND status = 'ok'") == 125);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE status = 'error'") == 0);
  // Section 9: 1 model per file, 401 nodes (T 331, R pivot 113, R full 84, S 89), 362 materials,
  // 203 NODE commands; one root per model, and every other node's parent comes before it.
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM nitro_models") == 44);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_nodes") == 401);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_nodes WHERE (flag & 1) = 0") == 331);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_nodes WHERE rotation = 'pivot'") == 113);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_nodes WHERE rotation = 'matrix'") == 84);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_nodes WHERE (flag & 4) = 0") == 89);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_materials") == 362);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_nodes WHERE visible IS NOT NULL") == 203);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_nodes WHERE parent IS NULL") == 44);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM model_nodes WHERE parent < node_index") == 357);
  // Section 2: the 40 BCA0 whose archive holds their model are joined by name with equal node
  // counts; the 85 of HGSS a/1/0/6 (no model in that archive) are not; both BVA0 by name.
  CHECK(test::sql_lines(db, "SELECT format, method, COALESCE(exact, '-'), COUNT(*) FROM nitro_links "
                    "WHERE format IN ('nsbca', 'nsbva') GROUP BY 1, 2, 3 ORDER BY 1, 2") ==
        std::vector<std::string>{"nsbca|name|1|40", "nsbca|none|-|85", "nsbva|name|1|2"});
  // Outside a/1/0/6 every DS animation has its model, by name.
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM nitro_links WHERE method <> 'name' AND file NOT LIKE '%/a/1/0/6/%'") == 0);
  // The note's example: HGSS a/1/3/4 `iaigiri` (12 nodes).
  const auto nodes = test::run_named(db, "nsbca-nodes", {{"animation", "iaigiri"}, {"file", "a/1/3/4/"}});
  std::vector<std::string> names;
  for (const auto& row : nodes.rows) names.push_back(cell_text(row[5]));
  CHECK(names == std::vector<std::string>{"world_root", "group1", "pPlane3", "pPlane4", "pPlane5", "pPlane6", "pPlane7",
                                          "pPlane8", "locator1", "pPlane2", "pPlane9", "pPlane3_1"});
  CHECK(test::sql_lines(db, "SELECT node_index, m.name, COALESCE(parent, '-') FROM model_nodes m JOIN nitro_models n "
                    "ON n.file_id = m.file_id JOIN files f ON f.id = m.file_id WHERE n.name = 'iaigiri' "
                    "AND f.path LIKE '%/a/1/3/4/%' AND node_index IN (0, 1, 9, 11) ORDER BY 1") ==
        std::vector<std::string>{"0|world_root|-", "1|group1|0", "9|pPlane2|8", "11|pPlane3_1|10"});
  // Every NSBCA track of a linked animation is named; none of the unlinked ones is.
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM bone_tracks t JOIN nitro_model_links l USING (animation_id) "
                                "JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id "
                                "WHERE f.format IN ('nsbca', 'nsbva') AND (l.method = 'none') = (t.bone_name IS NOT NULL)") == 0);
  // By name across the DS files: pPlane3 is node 2 of iaigiri in both games' archives.
  const auto users = test::run_named(db, "bone-users", {{"bone", "pPlane3"}});
  CHECK(users.rows.size() >= 2);
  for (const auto& row : users.rows) CHECK(cell_text(row[2]) == "pPlane3");
}
