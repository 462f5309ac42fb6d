// Folder outputs (output/output_folder.h): only into a new or empty folder or one the verb wrote
// before, never over a user's file, never through a link; stale pages of the last run removed.
#include <catch2/catch.hpp>
#include <filesystem>

#include "output/output_folder.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

TEST_CASE("a folder output writes a new folder and again into its own, removing stale files", "[output][reliability]") {
  test::TempDir dir;
  const auto root = dir / "out";
  {
    OutputFolder out(root, "report docs", false);
    out.write("README.md", "one\n");
    out.write("a/page.md", "page\n");
    out.finish();
  }
  CHECK(fs::is_regular_file(root / ".animdex-manifest"));
  {
    OutputFolder out(root, "report docs", false);  // its own folder: accepted
    out.write("README.md", "two\n");
    out.finish();
  }
  CHECK(test::read_text(root / "README.md") == "two\n");
  CHECK_FALSE(fs::exists(root / "a/page.md"));  // stale: removed, and its emptied folder with it
  CHECK_FALSE(fs::exists(root / "a"));
}

TEST_CASE("a folder output refuses a folder holding a file it did not write, naming it", "[output][reliability]") {
  test::TempDir dir;
  const auto root = dir / "out";
  test::write_text(root / "notes.txt", "mine\n");
  CHECK_THROWS_WITH(OutputFolder(root, "report docs", false),
                    Catch::Contains("notes.txt") && Catch::Contains("did not write") && Catch::Contains("--force"));
  {
    OutputFolder out(root, "report docs", true);  // --force: writes, leaves the user's file alone
    out.write("README.md", "ours\n");
    out.finish();
  }
  CHECK(test::read_text(root / "notes.txt") == "mine\n");
  // Still foreign on the next run without --force.
  CHECK_THROWS_AS(OutputFolder(root, "report docs", false), ForeignFileError);
}

TEST_CASE("a file the verb wrote and the user changed since is foreign, and never removed", "[output][reliability]") {
  test::TempDir dir;
  const auto root = dir / "out";
  {
    OutputFolder out(root, "sample", false);
    out.write("x.md", "written\n");
    out.write("y.md", "written\n");
    out.finish();
  }
  test::write_text(root / "y.md", "edited by the user\n");
  CHECK_THROWS_WITH(OutputFolder(root, "sample", false), Catch::Contains("y.md") && Catch::Contains("changed"));
  {
    OutputFolder out(root, "sample", true);
    out.write("x.md", "again\n");
    out.finish();  // y.md is stale but changed: kept
  }
  CHECK(test::read_text(root / "y.md") == "edited by the user\n");
  // Another verb's folder is not this one's.
  CHECK_THROWS_WITH(OutputFolder(root, "report docs", false), Catch::Contains("written by `animdex sample`"));
}

TEST_CASE("a folder output never writes through a linked subfolder", "[output][reliability]") {
  test::TempDir dir;
  const auto root = dir / "out";
  fs::create_directories(dir / "elsewhere");
  {
    OutputFolder out(root, "report docs", false);
    out.finish();
  }
  fs::create_directory_symlink(dir / "elsewhere", root / "dump");
  CHECK_THROWS_WITH(OutputFolder(root, "report docs", false), Catch::Contains("symbolic link"));
  OutputFolder forced(root, "report docs", true);
  CHECK_THROWS_WITH(forced.write("dump/files.md", "x"), Catch::Contains("symbolic link"));
  CHECK(fs::is_empty(dir / "elsewhere"));
  CHECK_THROWS_WITH(forced.write("../escape.md", "x"), Catch::Contains("outside"));
}

TEST_CASE("sample and report docs keep a user's files and remove their own stale pages", "[output][reliability][cli]") {
  test::TempDir dir;
  // sample DIR over a user's file that has a sample's name.
  test::write_text(dir / "s/files/chr/ank/0002.mot", "the user's own\n");
  auto refused = test::run_capturing({"sample", (dir / "s").string(), "--characters", "2"});
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Catch::Contains("files/chr/ank/0002.mot"));
  CHECK(test::read_text(dir / "s/files/chr/ank/0002.mot") == "the user's own\n");
  // Its own folder again: fine.
  REQUIRE(test::run({"sample", (dir / "t").string(), "--characters", "2"}).code == 0);
  REQUIRE(test::run({"sample", (dir / "t").string(), "--characters", "2"}).code == 0);

  const auto db = (dir / "t.db").string();
  test::run({"index", (dir / "t").string(), "--db", db, "--label", "one", "--quiet"});
  test::write_text(dir / "docs/README.md", "my notes\n");
  auto docs = test::run_capturing({"report", "docs", "--db", db, "--out", (dir / "docs").string()});
  CHECK(docs.code == 2);
  CHECK_THAT(docs.err, Catch::Contains("README.md"));
  CHECK(test::read_text(dir / "docs/README.md") == "my notes\n");

  const auto out = (dir / "pages").string();
  REQUIRE(test::run({"report", "docs", "--db", db, "--out", out}).code == 0);
  REQUIRE(fs::exists(dir / "pages/one/files.md"));
  // The dump is re-labelled: the next run's pages replace the old ones, whose folder goes.
  REQUIRE(test::run({"drop", "one", "--db", db}).code == 0);
  test::run({"index", (dir / "t").string(), "--db", db, "--label", "two", "--quiet"});
  REQUIRE(test::run({"report", "docs", "--db", db, "--out", out}).code == 0);
  CHECK(fs::exists(dir / "pages/two/files.md"));
  CHECK_FALSE(fs::exists(dir / "pages/one"));
}

TEST_CASE("force never removes another verb's files, nested outputs guard their own folders", "[output][reliability][cli]") {
  test::TempDir dir;
  REQUIRE(test::run({"sample", (dir / "s").string(), "--characters", "1", "--images", (dir / "s/img").string()}).code == 0);
  // The sample's folder holds the images' folder, with its own manifest: the next run is fine.
  CHECK(test::run({"sample", (dir / "s").string(), "--characters", "1", "--images", (dir / "s/img").string()}).code == 0);
  CHECK(test::run_capturing({"sample", (dir / "t").string(), "--images", (dir / "t").string()}).code == 2);
  const auto files_before = std::distance(fs::recursive_directory_iterator(dir / "s"), fs::recursive_directory_iterator());
  const auto db = (dir / "s.db").string();
  test::run({"index", (dir / "s/files").string(), "--db", db, "--quiet"});
  CHECK(test::run({"report", "docs", "--db", db, "--out", (dir / "s").string(), "--force"}).code == 0);
  CHECK(fs::exists(dir / "s/files/lw/camera.mot"));  // the sample's files stay
  CHECK(std::distance(fs::recursive_directory_iterator(dir / "s"), fs::recursive_directory_iterator()) > files_before);
}

TEST_CASE("demo refuses a user's file in its dump folder instead of deleting it", "[output][reliability][cli]") {
  test::TempDir dir;
  const auto demo = (dir / "demo").string();
  REQUIRE(test::run({"demo", "--dir", demo, "--characters", "1"}).code == 0);
  test::write_text(dir / "demo/dump/mine.txt", "mine\n");
  const auto refused = test::run_capturing({"demo", "--dir", demo, "--characters", "1"});
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Catch::Contains("mine.txt"));
  CHECK(test::read_text(dir / "demo/dump/mine.txt") == "mine\n");
  fs::remove(dir / "demo/dump/mine.txt");
  CHECK(test::run({"demo", "--dir", demo, "--characters", "2"}).code == 0);
}
