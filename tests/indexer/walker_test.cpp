#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "indexer/rows.h"

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

// Permissions do not stop root, so a child process drops to 'nobody' first when it is root.
// The child reports what it saw through a pipe; the parent asserts.
TEST_CASE("unreadable folders and files are recorded as errors", "[walker]") {
  test::TempDir dir;
  test::write_text(dir / "tree/locked/secret.mot", "x");
  test::write_text(dir / "tree/closed.mot", "x");
  test::write_text(dir / "tree/open.mot", "x");
  fs::permissions(dir / "tree/locked", fs::perms::none);
  fs::permissions(dir / "tree/closed.mot", fs::perms::none);
  int channel[2];
  REQUIRE(::pipe(channel) == 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(channel[0]);
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(2);
    std::string report;
    for (const auto& entry : walk_roots({dir / "tree"}).entries) {
      const auto row = process_file(entry, ReferenceData::embedded(), ProcessOptions{});
      report += entry.relative_path + " | " + std::string(status_name(row.status)) + " | " + row.error.value_or("") + "\n";
    }
    (void)::write(channel[1], report.data(), report.size());
    ::_exit(0);
  }
  ::close(channel[1]);
  std::string report;
  char buffer[512];
  for (ssize_t got; (got = ::read(channel[0], buffer, sizeof buffer)) > 0;) report.append(buffer, static_cast<std::size_t>(got));
  ::close(channel[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  fs::permissions(dir / "tree/locked", fs::perms::owner_all);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  CHECK(report ==
        "closed.mot | error | cannot open: Permission denied\n"
        "locked | error | cannot list folder: Permission denied\n"
        "open.mot | unknown | no known format: first bytes 78\n");
}
