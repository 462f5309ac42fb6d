// The command line end to end, in process: exit codes, output formats, refusal of writes.
#include <catch2/catch.hpp>
#include <sstream>

#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "formats/nsbca/nsbca_builder.h"
#include "formats/nsbca/nsbca_writer.h"
#include "sample/sample_dump.h"
#include <nlohmann/json.hpp>
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

using test::run;

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
  // The KH2 part: P_SAMPLE's FALL group (16..19) is all dummies, so its slots resolve to -1.
  CHECK_THAT(demo.out, Catch::Contains("kh2_mset  ok           2") &&
                           Catch::Contains("kh2/obj/P_SAMPLE.mset                 16          4  FALL             0"
                                           "             -1"));
  // The NSBCA part: "close" samples every 2nd frame of 8, so 5 samples for T and R.
  CHECK_THAT(demo.out, Catch::Contains("nds/data/door.nsbca  close                8     1        1  0x01003830"));
}

TEST_CASE("pose, export and convert on LightWave files", "[cli][lightwave]") {
  test::TempDir dir;
  const auto motion = (dir / "cam.mot").string();
  test::write_text(motion, "LWMO\n3\n\nNumChannels 2\nChannel 0\n{ Envelope\n  2\n  Key 0 0 3 0 0 0 0 0 0\n"
                           "  Key 4 2 3 0 0 0 0 0 0\n  Behaviors 1 1\n}\nChannel 1\n{ Envelope\n  1\n"
                           "  Key 7 0 0 0 0 0 0 0 0\n  Behaviors 1 1\n}\n");
  auto pose = run({"pose", motion, "--time", "0.5", "--format", "csv"});
  CHECK(pose.code == kExitOk);
  CHECK(pose.out == "channel,index,value\r\nx,0,1\r\ny,1,7\r\n");
  CHECK(run({"pose", motion, "--frame", "45", "--format", "csv"}).out == "channel,index,value\r\nx,0,3\r\ny,1,7\r\n");
  CHECK(run({"pose", motion, "--frame", "30", "--fps", "60", "--format", "csv"}).out ==
        "channel,index,value\r\nx,0,1\r\ny,1,7\r\n");
  CHECK(run({"pose", motion}).code == kExitUsage);
  auto baked = run({"export", motion, "--bake", "2"});
  CHECK(baked.out == "sample,seconds,x,y\r\n0,0,0,7\r\n1,0.5,1,7\r\n2,1,2,7\r\n3,1.5,3,7\r\n4,2,4,7\r\n");

  test::write_text(dir / "rig.txt", "Axes = VTrack, VEW, VNS, VPan, VTilt, VRoll\r\n1 2 3 4 5 6\r\n");
  auto converted = run({"convert", (dir / "rig.txt").string(), (dir / "rig.mot").string()});
  CHECK(converted.code == kExitOk);
  CHECK(test::read_bytes(dir / "rig.mot") ==
        test::bytes_of("LWMO\n1\n9\n2\n0 0 0 0 0 0 1 1 1\n0 0 0 0 0\n1 2 -3 4 -5 -6 1 1 1\n1 0 0 0 0\n"));
  auto remapped = run({"convert", (dir / "rig.txt").string(), (dir / "rig3.mot").string(), "--version", "3",
                       "--axis", "VTilt=4:1"});
  CHECK(remapped.code == kExitOk);
  auto pitch = run({"pose", (dir / "rig3.mot").string(), "--frame", "1", "--format", "csv"});
  // v3 stores radians: VTilt now un-flipped (5 degrees), VRoll still reversed (-6 degrees).
  CHECK_THAT(pitch.out, Catch::Contains("pitch,4,0.087266") && Catch::Contains("bank,5,-0.104719"));
  CHECK(run({"convert", (dir / "rig.txt").string(), (dir / "x.mot").string(), "--axis", "Zoom=2"}).code == kExitUsage);
  CHECK(run({"convert", motion, (dir / "v1.mot").string()}).code == kExitUsage);  // stepped keys have no v1 form
  const auto version_2 = run({"convert", motion, (dir / "v2.mot").string(), "--version", "2"});
  CHECK(version_2.code == kExitUsage);

  test::write_text(dir / "bad.mot", "LWMO\n2\n");
  CHECK(run({"pose", (dir / "bad.mot").string(), "--time", "0"}).code == kExitFileErrors);
  SampleDumpOptions options;
  options.character_count = 1;
  write_sample_dump(dir / "gnt", options);
  CHECK(run({"pose", (dir / "gnt/files/chr/sas/0000.mot").string(), "--time", "0"}).code == kExitUsage);
}

TEST_CASE("info on KH2 files lists slots, resolution and motions", "[cli][kh2]") {
  test::TempDir dir;
  REQUIRE(run({"sample", dir.path().string(), "--characters", "1", "--no-problem-files", "--kh2"}).code == kExitOk);
  const auto mset = (dir / "kh2/obj/M_SAMPLE.mset").string();
  auto info = run({"info", mset, "--format", "markdown"});
  CHECK(info.code == kExitOk);
  CHECK_THAT(info.out, Catch::Contains("| set_type | 0 (Default) |") && Catch::Contains("| nested_slot_count | 2 |") &&
                           Catch::Contains("## mset_slots") && Catch::Contains("## mset_resolution") &&
                           Catch::Contains("|  | 1 | 0 | 1 |  | WALK | DUMM | 17 | Anb | 1 | 0 | 696 |  | 1 |  |") &&
                           Catch::Contains("| 3 | 1 | 0 | 1 |  | WALK | A1 | 17 | Anb | 0 | 620 | 1344 |  | 0 | 2 |"));
  auto json = run({"info", (dir / "kh2/anm/S_SAMPLE.anb").string(), "--format", "json"});
  CHECK(json.code == kExitOk);
  CHECK_THAT(json.out, Catch::Contains("\"kind\": \"interpolated\"") && Catch::Contains("\"bone_count\": 24") &&
                           Catch::Contains("\"channels\": \"Ty\""));
}

TEST_CASE("pose and info on NSBCA files", "[cli][nsbca]") {
  test::TempDir dir;
  using namespace animdex::nsbca;
  NsbcaFile file;
  for (const char* name : {"first", "second"}) {
    JointAnimation animation;
    animation.name = name;
    animation.frame_count = 5;
    animation.rot3 = {encode_rot3(8, false, 0, 1, true, false)};
    NodeAnimation node;
    // Per axis, T and S are only constant or animated; an identity axis in a mixed group is a constant.
    node.translation = {animated_axis({0, 1, 2}, 5, 2, false, false), constant_axis(-1, false), identity_axis()};
    node.rotation = constant_rotation(0x8000);
    node.scale = {base_axis(), base_axis(), base_axis()};
    node.tag = tag_for(node, 3);
    animation.nodes = {node};
    file.animations.push_back(animation);
  }
  const auto path = (dir / "door.nsbca").string();
  test::write_bytes(path, write_nsbca(file));
  auto pose = run({"pose", path, "--anim", "second", "--frame", "3", "--format", "json"});
  CHECK(pose.code == kExitOk);
  const auto json = nlohmann::json::parse(pose.out);
  CHECK(json["animation"] == "second");
  CHECK(json["frame"] == 3);
  REQUIRE(json["nodes"].size() == 1);
  const auto& node = json["nodes"][0];
  CHECK(node["node_id"] == 3);
  CHECK(node["T"] == nlohmann::json::array({1.5, -1.0, 0.0}));  // frame 3 of step 2: mean of samples 1 and 2
  CHECK(node["R"] == nlohmann::json::array({0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0}));
  CHECK(node["S"].is_null());  // from the model's bind pose
  CHECK(run({"pose", path, "--frame", "5"}).code == kExitUsage);                   // past the last frame
  CHECK(run({"pose", path, "--frame", "1.5"}).code == kExitUsage);                 // not an integer frame
  CHECK(run({"pose", path, "--anim", "third", "--frame", "0"}).code == kExitUsage);
  auto table = run({"pose", path, "--frame", "0", "--format", "csv"});
  CHECK_THAT(table.out, Catch::StartsWith("node,node_id,T,R,S") && Catch::Contains("0,3,0 -1 0,0 1 0 -1 0 0 0 0 1,"));
  auto info = run({"info", path, "--format", "markdown"});
  CHECK(info.code == kExitOk);
  CHECK_THAT(info.out, Catch::Contains("## node_states") &&
                           Catch::Contains("| 1 | 0 | 3 | 50332976 | x=animated y=const z=const | const | base |"));
}

TEST_CASE("report reuse, report docs and diff from the command line", "[cli][reports]") {
  test::TempDir dir;
  REQUIRE(run({"sample", (dir / "a").string(), "--characters", "3", "--no-problem-files"}).code == kExitOk);
  REQUIRE(run({"sample", (dir / "b").string(), "--characters", "4", "--no-problem-files"}).code == kExitOk);
  const auto both = (dir / "both.db").string(), first = (dir / "a.db").string(), second = (dir / "b.db").string();
  REQUIRE(run({"index", (dir / "a").string(), "--db", both, "--label", "a", "--quiet"}).code == kExitOk);
  REQUIRE(run({"index", (dir / "b").string(), "--db", both, "--label", "b", "--quiet"}).code == kExitOk);
  REQUIRE(run({"index", (dir / "a").string(), "--db", first, "--quiet"}).code == kExitOk);
  REQUIRE(run({"index", (dir / "b").string(), "--db", second, "--quiet"}).code == kExitOk);

  auto reuse = run({"report", "reuse", "--db", both, "--dump", "a", "--format", "json"});
  CHECK(reuse.code == kExitOk);
  CHECK_THAT(reuse.out, Catch::Contains("\"identical\": [") && Catch::Contains("\"near\": ["));
  auto diff = run({"diff", first, second, "--format", "markdown"});
  CHECK(diff.code == kExitOk);
  CHECK_THAT(diff.out, Catch::Contains("| files/chr/loc/0000.mot | gnt_mot | added |"));
  auto labels = run({"diff", "--db", both, "--from", "a", "--to", "b", "--format", "csv"});
  CHECK_THAT(labels.out, Catch::Contains("files,files/chr/loc/0001.mot,gnt_mot,added"));
  CHECK(run({"diff", "--db", both}).code == kExitUsage);          // no labels
  CHECK(run({"diff", both, second}).code == kExitFatal);          // the first database holds two dumps
  CHECK(run({"diff", "--db", both, "--from", "a", "--to", "zz"}).code == kExitFatal);
  auto docs = run({"report", "docs", "--db", both, "--out", (dir / "docs").string()});
  CHECK(docs.code == kExitOk);
  CHECK(std::filesystem::exists(dir / "docs/animdex-docs.html"));
  CHECK(std::filesystem::exists(dir / "docs/b/bones.md"));
  CHECK(run({"report", "--help"}).code == kExitOk);
}

TEST_CASE("query parameters as -p NAME VALUE or -p NAME=VALUE", "[cli]") {
  test::TempDir dir;
  REQUIRE(run({"sample", (dir / "s").string(), "--characters", "2", "--no-problem-files"}).code == kExitOk);
  const auto db = (dir / "s.db").string();
  REQUIRE(run({"index", (dir / "s").string(), "--db", db, "--quiet"}).code == kExitOk);
  const auto pair = run({"query", "bone-users", "--db", db, "-p", "bone", "0", "--format", "csv"});
  const auto assignment = run({"query", "bone-users", "--db", db, "-p", "bone=0", "--format", "csv"});
  CHECK(pair.code == kExitOk);
  CHECK(assignment.code == kExitOk);
  CHECK(assignment.out == pair.out);
  const auto last = run({"query", "bone-users", "--db", db, "--format", "csv", "-p", "bone=0"});
  CHECK(last.out == pair.out);
  // A value that itself holds '=' still works in the two-word form.
  CHECK_THAT(run({"sql", "SELECT :v AS v", "--db", db, "-p", "v", "a=b", "--format", "csv"}).out,
             Catch::Contains("a=b"));
}

TEST_CASE("every verb's --help shows its own examples", "[cli]") {
  for (const std::vector<std::string>& verb :
       {std::vector<std::string>{"index"}, {"query"}, {"sql"}, {"queries"}, {"formats"}, {"schema"}, {"info"},
        {"report", "reuse"}, {"report", "docs"}, {"diff"}, {"pose"}, {"export"}, {"convert"}, {"sample"}, {"demo"}}) {
    auto args = verb;
    args.push_back("--help");
    const auto help = run(args);
    INFO(verb.back());
    CHECK(help.code == kExitOk);
    CHECK_THAT(help.out, Catch::Contains("Examples:\n  animdex " + verb.front()));
  }
}

TEST_CASE("animdex schema prints the schema reference generated from the DDL", "[cli]") {
  const auto schema = run({"schema"});
  CHECK(schema.code == kExitOk);
  CHECK_THAT(schema.out, Catch::StartsWith("# animdex database schema") && Catch::Contains("### `keyframes`") &&
                             Catch::Contains("| `time` | key time as stored"));
}
