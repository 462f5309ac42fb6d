// Indexes a dump of twelve characters written with the .mot writer (plus corrupt and non-GNT files):
// the summary, replacing a label, the size cap. Its exact answers are tests/sql/index_gnt_twelve.test.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <map>

#include "db/database.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "formats/gnt_mot/gnt_mot_builder.h"
#include "formats/gnt_mot/gnt_mot_parser.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "indexer/pipeline.h"
#include "support/gnt_trees.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::gnt_mot;

namespace {

// The generated dump (tests/support/gnt_trees.h), also the SQL fixture `gnt-twelve`.
std::string write_dump(const test::TempDir& dir) { return test::write_gnt_twelve(dir / "dump").string(); }

IndexOptions options_for(const std::string& root, const std::filesystem::path& database, const std::string& label) {
  auto options = test::index_options(root, database, label);
  options.threads = 2;
  return options;
}

}  // namespace

TEST_CASE("indexing a generated dump answers queries exactly", "[end_to_end]") {
  test::TempDir dir;
  const auto root = write_dump(dir);
  const auto options = options_for(root, dir / "dump.db", "ntsc");
  const auto summary = run_index(options);
  CHECK(summary.totals.files == 29);
  CHECK(summary.totals.ok == 25);
  CHECK(summary.totals.errors == 2);
  CHECK(summary.totals.unknown == 2);

  // The rows this index wrote are checked by tests/sql/index_gnt_twelve.test (fixture gnt-twelve);
  // here what is not a row: the summary above, a named query's columns and where the throw sits.
  auto db = open_read_only(options.database);
  CHECK(test::run_named(db, "bone-users", {{"bone", "118"}}).columns ==
        std::vector<std::string>{"game", "character", "bone_name", "animations"});
  // The throw sits at different offsets in nar's and sas's files (nar also has 0x1B0 before it), and
  // has one content hash (index_gnt_twelve.test).
  auto offset_of_throw = [&](const std::string& code) {
    auto parsed = parse_mot(test::read_bytes(std::filesystem::path(root) / "files/chr" / code / "0000.mot"));
    REQUIRE(parsed.ok());
    for (const auto& gnta : parsed.value().animations)
      if (gnta.animation_id == 0x140) return gnta.file_offset;
    return 0U;
  };
  CHECK(offset_of_throw("nar") != offset_of_throw("sas"));
}

TEST_CASE("an index's phases share out its time, the serial stages inside the files' phase", "[end_to_end]") {
  // The bench bounds figures c and j by these (bench/floors.h, two_thread_floor), and -v prints them.
  test::TempDir dir;
  const auto root = write_dump(dir);
  for (const int threads : {1, 2}) {
    auto options = options_for(root, dir / fmt::format("phases-{}.db", threads), "ntsc");
    options.threads = threads;
    const auto summary = run_index(options);
    const IndexPhases& phases = summary.phases;
    CHECK(phases.setup_seconds > 0);
    CHECK(phases.files_seconds > 0);
    CHECK(phases.end_seconds > 0);
    // Each phase is timed on its own clock reading: together they are the run, nothing left out.
    CHECK(phases.setup_seconds + phases.files_seconds + phases.end_seconds == Approx(summary.seconds).margin(1e-3));
    CHECK(phases.writer_seconds > 0);  // 29 files were written
    CHECK(phases.scan_seconds > 0);
    // Each serial stage runs on one thread at a time within the files' phase; at 1 thread the two
    // take turns on it.
    CHECK(phases.writer_seconds <= phases.files_seconds);
    CHECK(phases.scan_seconds <= phases.files_seconds);
    if (threads == 1) CHECK(phases.writer_seconds + phases.scan_seconds <= phases.files_seconds);
  }
}

TEST_CASE("re-indexing a label replaces it and other labels stay", "[end_to_end]") {
  test::TempDir dir;
  const auto root = write_dump(dir);
  auto options = options_for(root, dir / "dump.db", "ntsc");
  run_index(options);
  run_index(options);
  options.label = "pal";
  std::filesystem::remove(std::filesystem::path(root) / "files/chr/nar/0000.mot");
  // The same folder as another dump: refused unless asked for (every answer over both counts twice).
  CHECK_THROWS_AS(run_index(options), DumpsOverlap);
  options.allow_overlap = true;
  run_index(options);
  auto db = open_read_only(options.database);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM dumps") == 2);
  CHECK(test::query_integer(db, "SELECT file_count FROM dumps WHERE label = 'ntsc'") == 29);
  CHECK(test::query_integer(db, "SELECT file_count FROM dumps WHERE label = 'pal'") == 28);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files f JOIN dumps d ON d.id = f.dump_id WHERE d.label = 'ntsc'") == 29);
  CHECK(test::run_named(db, "bone-users", {{"bone", "118"}, {"dump", "pal"}}).rows.size() == 4);
  CHECK(test::run_named(db, "bone-users", {{"bone", "118"}, {"dump", "ntsc"}}).rows.size() == 5);
  // Without a dump, a character's animations are counted over every file of every dump (the query
  // counts per file, then sums): ino's two files in each dump are 4, nar's removed file leaves 1.
  std::vector<std::string> both;
  for (const auto& row : test::run_named(db, "bone-users", {{"bone", "118"}}).rows)
    both.push_back(cell_text(row[1]) + "=" + cell_text(row[3]));
  CHECK(both == std::vector<std::string>{"gar=2", "ino=4", "kak=2", "nar=1", "sas=2"});
  // No orphans were left behind by the replacement.
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes WHERE track_id NOT IN (SELECT id FROM bone_tracks)") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM bone_tracks WHERE animation_id NOT IN (SELECT id FROM animations)") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM ref_animation_purposes") == 131);
}

TEST_CASE("files over --max-file-size are detected but not parsed", "[end_to_end]") {
  test::TempDir dir;
  const auto root = write_dump(dir);
  auto options = options_for(root + "/files/chr/sas", dir / "small.db", "default");
  options.max_file_size = 1024;
  const auto summary = run_index(options);
  auto db = open_read_only(options.database);
  CHECK(summary.totals.errors == 1);  // 0000.mot is larger than 1 KiB; 0001.mot is not
  CHECK_THAT(cell_text(run_read_only_sql(db, "SELECT error FROM files WHERE path = '0000.mot'").rows.at(0).at(0)),
             Catch::Contains("over the 1024-byte limit"));
}
