// Issue 39 items 7 and 8: honest summaries and limits, one way to report a write.
#include <catch2/catch.hpp>

#include "cli/exit_codes.h"
#include "db/database.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

TEST_CASE("index says what it found: counts in the right number, a warning when nothing is an animation",
          "[cli][index][summary]") {
  test::TempDir dir;
  std::filesystem::create_directories(dir / "empty/sub");
  const auto empty = test::run_capturing({"index", (dir / "empty").string(), "--db", (dir / "e.db").string()});
  CHECK(empty.code == kExitUsage);
  CHECK(empty.err.find("holds no files: nothing to index") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "e.db"));

  std::filesystem::create_directories(dir / "notes");
  test::write_bytes(dir / "notes/readme.txt", std::vector<std::byte>(10, std::byte{'a'}));
  const auto one = test::run_capturing({"index", (dir / "notes").string(), "--db", (dir / "n.db").string()});
  CHECK(one.code == kExitOk);
  CHECK(one.err.find("indexed 1 file as dump 'notes'") != std::string::npos);
  CHECK(one.err.find("0 errors, 1 not an animation file; 0 animations") != std::string::npos);
  CHECK(one.err.find("warning: no animation among this file") != std::string::npos);
  CHECK(one.err.find("parsed") == std::string::npos);

  // A broken file of a format animdex reads: the warning says so, not that the format is unknown.
  REQUIRE(test::run({"sample", (dir / "s").string()}).code == kExitOk);  // with its two broken files
  std::filesystem::create_directories(dir / "broken");
  std::filesystem::copy_file(dir / "s/files/chr/bad/0000.mot", dir / "broken/0000.mot");
  const auto broken = test::run_capturing({"index", (dir / "broken").string(), "--db", (dir / "b.db").string()});
  INFO(broken.err);
  CHECK(broken.err.find("1 error, 0 not animation files") != std::string::npos);
  CHECK(broken.err.find("warning: no animation was read: 1 file of a format animdex reads could not be parsed") !=
        std::string::npos);
  CHECK(broken.err.find("no animation among") == std::string::npos);
}

TEST_CASE("a named query past --max-rows prints its first rows and a note", "[cli][query][summary]") {
  test::TempDir dir;
  REQUIRE(test::run({"sample", (dir / "s").string(), "--kh2", "--no-problem-files"}).code == 0);
  REQUIRE(test::run({"index", (dir / "s").string(), "--db", (dir / "s.db").string(), "--quiet"}).code == 0);
  const auto cut = test::run_capturing({"query", "kh2-motions", "--db", (dir / "s.db").string(), "--max-rows", "2",
                                        "--format", "csv"});
  CHECK(cut.code == kExitOk);
  CHECK(test::count_of(cut.out, "\n") == 3);  // the header and two rows
  CHECK(cut.err.find("the first 2 rows are shown and there are more") != std::string::npos);
  // Free SQL can take a LIMIT: refused, as before.
  const auto refused = test::run_capturing({"sql", "SELECT * FROM animations", "--db", (dir / "s.db").string(),
                                            "--max-rows", "2"});
  CHECK(refused.code != kExitOk);
  CHECK(refused.err.find("add LIMIT") != std::string::npos);
}

TEST_CASE("every verb that writes a file says `wrote PATH` on stderr, export --out too", "[cli][summary]") {
  test::TempDir dir;
  const auto sample = test::run_capturing({"sample", (dir / "s").string()});
  CHECK(sample.err.find("wrote " + (dir / "s").string() + " (") != std::string::npos);
  const auto mot = (dir / "s/files/chr/nar/0000.mot").string();
  const auto bake = test::run_capturing({"export", mot, "--bake", "10", "--out", (dir / "b.csv").string()});
  CHECK(bake.code == kExitOk);
  CHECK(bake.out.empty());
  CHECK(bake.err.find("wrote " + (dir / "b.csv").string() + " (") != std::string::npos);
  const auto plot = test::run_capturing({"plot", mot, "--slot", "0x90", "--out", (dir / "p.html").string()});
  CHECK(plot.code == kExitOk);
  CHECK(plot.out.empty());
  CHECK(plot.err.find("wrote " + (dir / "p.html").string() + " (") != std::string::npos);
}

TEST_CASE("a folder where a file is expected is one usage error line, for every verb", "[cli][summary]") {
  test::TempDir dir;
  std::filesystem::create_directories(dir / "f");
  test::write_text(dir / "afile.txt", "not a folder");
  const std::string folder = (dir / "f").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"info", folder}, {"ls", folder}, {"pose", folder, "--frame", "0"},
        {"plot", folder, "--out", (dir / "p.html").string()}, {"query", "dumps", "--db", folder},
        {"sql", "SELECT 1", "--db", folder}, {"extract", folder, "m.mot", "--out", (dir / "m.mot").string()}}) {
    const auto result = test::run_capturing(args);
    INFO(args.front() << ": " << result.err);
    CHECK(result.code == kExitUsage);
    CHECK(result.out.empty());
    CHECK(test::count_of(result.err, "\n") == 1);
    CHECK(result.err.find("is a folder") != std::string::npos);
  }
  // The reverse: a file where a folder is written.
  REQUIRE(test::run({"sample", (dir / "s").string(), "--no-problem-files", "--nsbca"}).code == kExitOk);
  REQUIRE(test::run({"index", (dir / "s").string(), "--db", (dir / "s.db").string(), "--quiet"}).code == kExitOk);
  const auto docs = test::run_capturing({"report", "docs", "--db", (dir / "s.db").string(), "--out",
                                         (dir / "afile.txt").string()});
  CHECK(docs.code == kExitUsage);
  CHECK(docs.err == "animdex: error: " + (dir / "afile.txt").string() + " is not a folder; give a new or empty folder\n");
  // A folder named as the file to write: the same usage error for every verb that writes one.
  const std::string mot = (dir / "s/files/chr/nar/0000.mot").string(), db = (dir / "s.db").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"export", mot, "--slot", "0", "--bake", "30", "--out", folder},
        {"export", mot + "x", "--gltf", folder},
        {"plot", mot, "--slot", "0", "--out", folder},
        {"view", (dir / "s/nds/data/door.nsbca").string(), "--anim", "open", "--out", folder},
        {"extract", (dir / "s").string(), "files/chr/nar/0000.mot", "--out", folder},
        {"report", "reuse", "--db", db, "--out", folder},
        {"diff", "--db", db, "--from", "s", "--to", "s", "--out", folder}}) {
    const auto result = test::run_capturing(args);
    INFO(args.front() << ": " << result.err);
    CHECK(result.code == kExitUsage);
    CHECK(result.out.empty());
    CHECK(test::count_of(result.err, "\n") == 1);
    CHECK(result.err.find(folder) != std::string::npos);
  }
}

TEST_CASE("animations without tracks are not reuse", "[cli][reports][summary]") {
  test::TempDir dir;
  const auto path = dir / "r.db";
  {
    auto db = open_for_writing(path);
    db.exec("INSERT INTO dumps(id, label, root, indexed_at) VALUES (1, 'd', '/d', 'now'); "
            "INSERT INTO files(id, dump_id, path, format, size, status) VALUES "
            "(1, 1, 'a.nsbca', 'nsbca', 4, 'ok'), (2, 1, 'b.nsbca', 'nsbca', 4, 'ok'); "
            "INSERT INTO animations(id, file_id, name, track_count, key_count, content_hash, shape_hash) VALUES "
            "(1, 1, 'empty', 0, 0, 'same', 's'), (2, 2, 'empty', 0, 0, 'same', 's')");
  }
  auto db = open_read_only(path);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM reuse_groups") == 0);
}
