// The command line end to end, in process: exit codes, output formats, refusal of writes.
#include <catch2/catch.hpp>
#include <sstream>

#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "sample/sample_dump.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

struct Run {
  int code;
  std::string out;
};

Run run(std::vector<std::string> args) {
  args.insert(args.begin(), "animdex");
  std::vector<const char*> argv;
  for (const auto& arg : args) argv.push_back(arg.c_str());
  std::ostringstream out;
  const int code = run_cli(static_cast<int>(argv.size()), argv.data(), out);
  return {code, out.str()};
}

}  // namespace

TEST_CASE("index, query and sql through the command line", "[cli]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 6;
  write_sample_dump(dir / "dump", options);
  const std::string db = (dir / "sample.db").string();

  // The sample has two broken files: the scan finishes and says so with exit code 3.
  CHECK(run({"index", (dir / "dump").string(), "--db", db, "--label", "s", "--quiet"}).code == kExitFileErrors);

  auto users = run({"query", "bone-users", "--db", db, "-p", "bone", "0x76", "--format", "csv"});
  CHECK(users.code == kExitOk);
  std::string expected = "character,animations\r\n";
  for (const auto& code : sample_bone_118_characters(6)) {
    const bool hair = code == "sas" || code == "iru";  // characters 0 and 4: hair in idle (x2 files)
    const bool throws = code != "kak";                 // character 2 has no throw
    expected += code + "," + std::to_string((hair ? 2 : 0) + (throws ? 1 : 0)) + "\r\n";
  }
  CHECK(users.out == expected);

  auto json = run({"query", "characters", "--db", db, "--format", "json", "-p", "dump", "s"});
  CHECK(json.code == kExitOk);
  CHECK_THAT(json.out, Catch::StartsWith("[\n  {\n    \"character\": \"bad\""));
  CHECK_THAT(json.out, Catch::Contains("\"name\": \"Sasuke\""));

  auto errors = run({"query", "errors", "--db", db, "--format", "markdown"});
  CHECK_THAT(errors.out, Catch::StartsWith("| dump | path | format | error |"));
  CHECK_THAT(errors.out, Catch::Contains("files/chr/bad/0000.mot"));

  CHECK(run({"query", "no-such-query", "--db", db}).code == kExitUsage);
  CHECK(run({"query", "bone-users", "--db", db}).code == kExitUsage);  // missing -p bone
  CHECK(run({"query", "bone-users", "--db", db, "-p", "bone", "1", "-p", "colour", "red"}).code == kExitUsage);
  CHECK(run({"sql", "DELETE FROM files", "--db", db}).code == kExitRefused);
  CHECK(run({"sql", "SELECT nonsense FROM files", "--db", db}).code == kExitFatal);
  auto count = run({"sql", "SELECT COUNT(*) AS n FROM files WHERE status = :s", "--db", db, "-p", "s", "error",
                    "--format", "csv"});
  CHECK(count.out == "n\r\n2\r\n");
  CHECK(run({"query", "dumps", "--db", (dir / "missing.db").string()}).code == kExitFatal);
}

TEST_CASE("info prints one file's structure", "[cli]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 1;
  write_sample_dump(dir.path(), options);
  auto table = run({"info", (dir / "files/chr/sas/0001.mot").string()});
  CHECK(table.code == kExitOk);
  CHECK_THAT(table.out, Catch::Contains("gnt_mot") && Catch::Contains("slot_count") && Catch::Contains("Idle") &&
                            Catch::Contains("hair left 3"));
  auto json = run({"info", (dir / "files/chr/sas/0001.mot").string(), "--format", "json"});
  CHECK_THAT(json.out, Catch::Contains("\"keys\": [") && Catch::Contains("\"value_encoding\": \"bf16x4\""));
  CHECK(run({"info", (dir / "files/chr/bad/0000.mot").string()}).code == kExitFileErrors);
  CHECK(run({"info", (dir / "files/tools/loader.mot").string()}).code == kExitFatal);
}

TEST_CASE("help, version, usage errors and the demo", "[cli]") {
  CHECK(run({"--help"}).code == kExitOk);
  CHECK_THAT(run({"--help"}).out, Catch::Contains("Exit codes"));
  CHECK_THAT(run({"index", "--help"}).out, Catch::Contains("--label") && Catch::Contains("--threads"));
  CHECK(run({"--version"}).code == kExitOk);
  CHECK(run({}).code == kExitUsage);
  CHECK(run({"frobnicate"}).code == kExitUsage);
  CHECK(run({"query", "bone-users", "--db", "x.db", "--format", "xml"}).code == kExitUsage);
  auto formats = run({"formats"});
  CHECK_THAT(formats.out, Catch::Contains("gnt_mot"));
  auto queries = run({"queries", "--format", "csv"});
  CHECK_THAT(queries.out, Catch::Contains("bone-users,") && Catch::Contains("purposes,"));

  test::TempDir dir;
  auto demo = run({"demo", "--dir", dir.path().string(), "--characters", "4"});
  CHECK(demo.code == kExitOk);
  CHECK_THAT(demo.out, Catch::Contains("Which characters animate bone 118") && Catch::Contains("Throw") &&
                           Catch::Contains("files/chr/bad/0000.mot"));
}
