#include <catch2/catch.hpp>
#include <unistd.h>

#include "indexer/walker.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {
std::vector<std::string> paths(const WalkResult& result) {
  std::vector<std::string> out;
  for (const auto& entry : result.entries) out.push_back(entry.relative_path);
  return out;
}
}  // namespace

TEST_CASE("the walker lists files recursively, sorted, with '/' paths and sizes", "[walker]") {
  test::TempDir dir;
  test::write_text(dir / "b/2.mot", "xx");
  test::write_text(dir / "a/chr/nar/0000.mot", "abc");
  test::write_text(dir / "top.txt", "");
  fs::create_directories(dir / "empty");
  const auto result = walk_roots({dir.path()});
  CHECK(paths(result) == std::vector<std::string>{"a/chr/nar/0000.mot", "b/2.mot", "top.txt"});
  CHECK(result.entries[0].size == 3);
  CHECK(result.entries[0].mtime_ns > 0);
  CHECK(result.warnings.empty());
}

TEST_CASE("symbolic link loops cannot hang the walker", "[walker]") {
  test::TempDir dir;
  test::write_text(dir / "root/sub/file.mot", "x");
  fs::create_directory_symlink(dir / "root", dir / "root/sub/loop");      // points back up
  fs::create_directory_symlink(dir / "root/sub", dir / "root/sub/self");  // points at itself
  fs::create_symlink(dir / "root/nowhere", dir / "root/dangling");
  const auto result = walk_roots({dir / "root"});
  CHECK(paths(result) == std::vector<std::string>{"sub/file.mot"});
  CHECK(result.warnings.size() == 3);
}

TEST_CASE("several roots are prefixed with their folder names", "[walker]") {
  test::TempDir dir;
  test::write_text(dir / "ntsc/files/a.mot", "x");
  test::write_text(dir / "pal/files/a.mot", "y");
  test::write_text(dir / "other/ntsc/b.mot", "z");
  const auto result = walk_roots({dir / "ntsc", dir / "pal", dir / "other/ntsc"});
  CHECK(paths(result) == std::vector<std::string>{"ntsc/files/a.mot", "pal/files/a.mot", "ntsc~2/b.mot"});
}

TEST_CASE("a root may be a single file", "[walker]") {
  test::TempDir dir;
  test::write_text(dir / "one.mot", "abcd");
  const auto result = walk_roots({dir / "one.mot"});
  CHECK(paths(result) == std::vector<std::string>{"one.mot"});
  CHECK(result.entries[0].size == 4);
}

TEST_CASE("unreadable folders become entries with an error", "[walker]") {
  if (::geteuid() == 0) {
    WARN("running as root: permissions do not stop root, so the unreadable-folder case cannot be staged");
    return;
  }
  test::TempDir dir;
  test::write_text(dir / "locked/secret.mot", "x");
  fs::permissions(dir / "locked", fs::perms::none);
  const auto result = walk_roots({dir.path()});
  fs::permissions(dir / "locked", fs::perms::owner_all);
  REQUIRE(result.entries.size() == 1);
  CHECK(result.entries[0].relative_path == "locked");
  CHECK_THAT(result.entries[0].error, Catch::Contains("cannot list folder"));
}
