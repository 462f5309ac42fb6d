// Files that vanish or change between the walk and the read, empty files and folders, and
// names that are not UTF-8: each is recorded sensibly and the scan goes on.
#include <catch2/catch.hpp>
#include <sstream>

#include "db/database.h"
#include "db/sql_runner.h"
#include "indexer/pipeline.h"
#include "indexer/rows.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

TEST_CASE("a file that vanished after the walk is an error, not a crash", "[walker][edge]") {
  test::TempDir dir;
  test::write_text(dir / "gone.mot", "LWMO");
  auto walked = walk_roots({dir.path()});
  REQUIRE(walked.entries.size() == 1);
  fs::remove(dir / "gone.mot");
  const auto row = process_file(walked.entries[0], ReferenceData::embedded(), ProcessOptions{});
  CHECK(row.status == FileStatus::error);
  CHECK_THAT(row.error.value_or(""), Catch::Contains("cannot open") && Catch::Contains("No such file"));
}

TEST_CASE("a file that changed after the walk is read as it is now", "[walker][edge]") {
  test::TempDir dir;
  test::write_text(dir / "grows.bin", "abc");
  auto walked = walk_roots({dir.path()});
  test::write_text(dir / "grows.bin", "abcdefgh");
  const auto row = process_file(walked.entries[0], ReferenceData::embedded(), ProcessOptions{});
  CHECK(row.status == FileStatus::unknown);
  CHECK(row.size == 8);
}

TEST_CASE("empty files, empty folders and non-UTF-8 names are indexed", "[walker][edge]") {
  test::TempDir dir;
  test::write_text(dir / "root/empty.mot", "");
  fs::create_directories(dir / "root/empty-folder/deeper");
  test::write_text(dir / "root/chr/\xff\xfe-bad-name/0000.mot", "not gnt");
  fs::create_symlink(dir / "root/nowhere", dir / "root/dangling");
  fs::create_directory_symlink(dir / "root", dir / "root/chr/loop");
  const auto database = dir / "edge.db";
  const auto summary = test::index_tree(dir / "root", database);
  CHECK(summary.totals.files == 2);
  CHECK(summary.totals.errors == 0);
  auto db = open_read_only(database);
  auto rows = run_read_only_sql(db, "SELECT path, size, status, character FROM files ORDER BY path");
  REQUIRE(rows.rows.size() == 2);
  CHECK(std::get<std::string>(rows.rows[0][0]) == "chr/\xff\xfe-bad-name/0000.mot");
  CHECK(std::get<std::string>(rows.rows[0][3]) == "\xff\xfe-bad-name");
  CHECK(std::get<std::string>(rows.rows[1][0]) == "empty.mot");
  CHECK(std::get<std::int64_t>(rows.rows[1][1]) == 0);
  CHECK(std::get<std::string>(rows.rows[1][2]) == "unknown");
  auto warnings = run_read_only_sql(db, "SELECT path, message FROM scan_warnings ORDER BY path");
  REQUIRE(warnings.rows.size() == 2);
  CHECK(std::get<std::string>(warnings.rows[0][0]) == "chr/loop");
  CHECK_THAT(std::get<std::string>(warnings.rows[0][1]), Catch::Contains("already visited"));
  CHECK(std::get<std::string>(warnings.rows[1][0]) == "dangling");
  CHECK_THAT(std::get<std::string>(warnings.rows[1][1]), Catch::Contains("dangling symbolic link"));
  for (auto format : {OutputFormat::table, OutputFormat::csv, OutputFormat::json, OutputFormat::markdown}) {
    std::ostringstream out;
    CHECK_NOTHROW(write_table(out, rows, format));
    CHECK_FALSE(out.str().empty());
  }
}
