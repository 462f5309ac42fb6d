// Dumps that hold the same files are refused unless asked for (nothing counted twice), and
// `animdex drop` removes one dump with all its rows.
#include <catch2/catch.hpp>

#include "db/database.h"
#include "indexer/db_writer.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

TEST_CASE("roots overlap when one is, or is inside, the other, by whole path components", "[cli][dumps]") {
  CHECK(roots_overlap("/a/dump", "/a/dump"));
  CHECK(roots_overlap("/a/dump/kh2", "/a/dump"));
  CHECK(roots_overlap("/a", "/b\n/a/dump"));
  CHECK_FALSE(roots_overlap("/a/dump2", "/a/dump"));
  CHECK_FALSE(roots_overlap("/a/x\n/a/y", "/a/z"));
}

TEST_CASE("a subfolder of an indexed folder is refused as a second dump, and drop removes a dump", "[cli][dumps]") {
  test::TempDir dir;
  test::write_clean_sample(dir / "s", 2, true);
  const auto db = (dir / "g.db").string();
  REQUIRE(test::run({"index", (dir / "s").string(), "--db", db, "--quiet"}).code == 0);
  const auto counts = [&] {
    return test::run({"sql", "SELECT character, files, animations FROM (SELECT character, COUNT(DISTINCT f.id) AS files, "
                             "COUNT(a.id) AS animations FROM files f JOIN animations a ON a.file_id = f.id "
                             "WHERE character = 'P_SAMPLE' GROUP BY character)",
                      "--db", db, "--format", "csv", "--no-header"})
        .out;
  };
  const auto before = counts();
  auto refused = test::run_capturing({"index", (dir / "s/kh2").string(), "--db", db, "--quiet"});
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Catch::Contains("dump 's'") && Catch::Contains("twice") && Catch::Contains("--allow-overlap"));
  CHECK(counts() == before);  // nothing was added

  REQUIRE(test::run({"index", (dir / "s/kh2").string(), "--db", db, "--allow-overlap", "--quiet"}).code == 0);
  CHECK(counts() != before);  // what the user asked for: the same files in two dumps
  // Re-indexing that dump from the same roots needs no flag again.
  CHECK(test::run({"index", (dir / "s/kh2").string(), "--db", db, "--quiet"}).code == 0);

  const auto unknown = test::run_capturing({"drop", "kh", "--db", db});
  CHECK(unknown.code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("no dump labelled 'kh'") && Catch::Contains("kh2, s"));
  const auto dropped = test::run({"drop", "kh2", "--db", db});
  CHECK(dropped.code == 0);
  CHECK_THAT(dropped.out, Catch::StartsWith("removed dump 'kh2'") && Catch::Contains("4 files"));
  CHECK(counts() == before);
  auto reader = open_read_only(db);
  CHECK(test::query_integer(reader, "SELECT COUNT(*) FROM dumps") == 1);
  CHECK(test::foreign_key_violations(reader) == 0);
  CHECK(test::query_integer(reader, "SELECT COUNT(*) FROM scan_warnings WHERE dump_id NOT IN (SELECT id FROM dumps)") == 0);
}

TEST_CASE("a link to an indexed folder overlaps it", "[cli][dumps]") {
  test::TempDir dir;
  test::write_clean_sample(dir / "s", 1, false);
  std::filesystem::create_directory_symlink(dir / "s", dir / "link");
  const auto db = (dir / "g.db").string();
  REQUIRE(test::run({"index", (dir / "s").string(), "--db", db, "--quiet"}).code == 0);
  CHECK(test::run_capturing({"index", (dir / "link").string(), "--db", db, "--quiet"}).code == 2);
  CHECK(roots_overlap((dir / "link/files").string(), (dir / "s").string()));
}
