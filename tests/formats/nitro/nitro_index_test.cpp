// DS models and animations in the index: re-indexing an unchanged tree skips the post-index model
// link step. The links, node names, `bone-users` by name, the ROM folders and the 9 real NARCs are
// in tests/sql/nitro_*.test.
#include <catch2/catch.hpp>

#include "db/database.h"
#include "db/sql_runner.h"
#include "indexer/pipeline.h"
#include "support/index_tree.h"
#include "support/nitro_trees.h"
#include "support/test_support.h"

using namespace animdex;

TEST_CASE("re-indexing an unchanged DS tree keeps its model links without running the link step again", "[nitro][end_to_end]") {
  test::TempDir dir;
  const auto root = dir / "dump";
  test::write_nitro_link_tree(root);  // the tree of the SQL fixture nitro-links
  const auto index = test::index_options(root, dir / "nitro.db");
  const auto summary = run_index(index);
  CHECK(summary.totals.ok == 11);
  auto db = open_read_only(index.database);
  CHECK(test::foreign_key_violations(db) == 0);
  // Links, names and warnings are kept; the post-index step is skipped.
  {
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
}
