// Output files (output/output_file.h): written through a fresh exclusive temporary, never through a
// name someone planted beside the target.
#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

#include "output/output_file.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

// Every name in `folder`, to see that no temporary is left behind.
std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("an output file never follows a link planted at its old temporary name", "[output][reliability]") {
  test::TempDir dir;
  test::write_text(dir / "victim.txt", "the user's own file\n");
  fs::create_symlink(dir / "victim.txt", dir / "out.csv.animdex-partial");
  write_file_checked(dir / "out.csv", "a,b\n");
  CHECK(test::read_text(dir / "victim.txt") == "the user's own file\n");
  CHECK(test::read_text(dir / "out.csv") == "a,b\n");
  CHECK(names_in(dir.path()) == std::vector<std::string>{"out.csv", "out.csv.animdex-partial", "victim.txt"});
}

TEST_CASE("an output whose name is a link replaces the link, not the file it points to", "[output][reliability]") {
  test::TempDir dir;
  test::write_text(dir / "victim.txt", "keep\n");
  fs::create_symlink(dir / "victim.txt", dir / "out.csv");
  write_file_checked(dir / "out.csv", "new\n");
  CHECK(test::read_text(dir / "victim.txt") == "keep\n");
  CHECK_FALSE(fs::is_symlink(dir / "out.csv"));
  CHECK(test::read_text(dir / "out.csv") == "new\n");
}

TEST_CASE("an output file not committed leaves the previous file whole and no temporary", "[output][reliability]") {
  test::TempDir dir;
  test::write_text(dir / "out.csv", "previous\n");
  {
    OutputFile file(dir / "out.csv");
    file.write("half of a new ");
  }
  CHECK(test::read_text(dir / "out.csv") == "previous\n");
  CHECK(names_in(dir.path()) == std::vector<std::string>{"out.csv"});
  CHECK_THROWS_WITH(write_file_checked(dir.path(), "x"), Catch::Contains("it is a folder"));
  CHECK_THROWS_WITH(write_file_checked(dir / "missing/out.csv", "x"),
                    Catch::Contains("missing/out.csv") && Catch::Contains("No such file"));
}

TEST_CASE("extract --out writes through no planted link", "[output][reliability][cli]") {
  test::TempDir dir;
  REQUIRE(test::run({"sample", (dir / "dump").string(), "--characters", "1", "--images", (dir / "images").string()})
              .code == 0);
  test::write_text(dir / "victim.txt", "the user's own file\n");
  fs::create_symlink(dir / "victim.txt", dir / "door.nsbca.animdex-partial");
  const auto extracted = test::run_capturing({"extract", (dir / "images/nitro.nds").string(), "data/door.nsbca",
                                              "--out", (dir / "door.nsbca").string()});
  CHECK(extracted.code == 0);
  CHECK(test::read_text(dir / "victim.txt") == "the user's own file\n");
  CHECK(test::read_bytes(dir / "door.nsbca") == test::read_bytes(dir / "dump/nds/data/door.nsbca"));
}

TEST_CASE("an interrupted write leaves no temporary, a replaced file keeps its permissions", "[output][reliability]") {
  test::TempDir dir;
  const pid_t child = ::fork();
  if (child == 0) {
    ::signal(SIGTERM, SIG_DFL);  // as in animdex (the test runner has a handler of its own)
    OutputFile file(dir / "out.csv");
    file.write("half");
    ::raise(SIGTERM);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK(names_in(dir.path()).empty());

  test::write_text(dir / "private.txt", "secret\n");
  fs::permissions(dir / "private.txt", fs::perms::owner_read | fs::perms::owner_write);
  write_file_checked(dir / "private.txt", "still secret\n");
  CHECK(fs::status(dir / "private.txt").permissions() == (fs::perms::owner_read | fs::perms::owner_write));
}

TEST_CASE("export, plot and convert refuse to write over the file they read", "[output][reliability][cli]") {
  test::TempDir dir;
  REQUIRE(test::run({"sample", (dir / "s").string(), "--characters", "1"}).code == 0);
  const auto lw = (dir / "s/files/lw/camera.mot").string();
  const auto before = test::read_text(lw);
  fs::create_symlink(lw, dir / "link.mot");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"export", lw, "--bake", "2", "--out", lw},
           {"plot", lw, "--out", (dir / "link.mot").string()},
           {"convert", lw, (dir / "s/files/lw/./camera.mot").string()}}) {
    const auto refused = test::run_capturing(args);
    INFO(args.front());
    CHECK(refused.code == 2);
    CHECK_THAT(refused.err, Catch::Contains("is the file being read"));
  }
  CHECK(test::read_text(lw) == before);
}
