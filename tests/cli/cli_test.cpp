// The command line end to end, in process: exit codes, output formats, refusal of writes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/exit_codes.h"
#include "formats/kh2/kh2_bar.h"
#include "formats/kh2/kh2_builder.h"
#include "formats/nitro/bca0_builder.h"
#include "formats/nitro/bca0_writer.h"
#include "formats/registry.h"
#include "sample/sample_dump.h"
#include <nlohmann/json.hpp>
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

using test::run;
using test::run_capturing;

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
  std::string expected = "game,character,bone_name,animations\r\n";
  for (const auto& code : sample_bone_118_characters(6)) {
    const bool hair = code == "sas" || code == "iru";  // characters 0 and 4: hair in idle (x2 files)
    const bool throws = code != "kak";                 // character 2 has no throw
    expected += "gnt4," + code + ",hair left 3," + std::to_string((hair ? 2 : 0) + (throws ? 1 : 0)) + "\r\n";
  }
  CHECK(users.out == expected);

  auto json = run({"query", "characters", "--db", db, "--format", "json", "-p", "dump", "s"});
  CHECK(json.code == kExitOk);
  CHECK_THAT(json.out, Catch::StartsWith("[\n  {\n    \"game\": \"gnt4\",\n    \"character\": \"bad\""));
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
  // The NSBCA part: "close" samples every 2nd frame of 8, so 5 samples for T and R; node 1 is the
  // door model's `hinge`.
  CHECK_THAT(demo.out, Catch::Contains("nds/data/door.nsbca  close                8     1  hinge            1  0x01003830"));
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
  auto baked = run({"export", motion, "--bake", "2"});  // long form; a LightWave file is one unnamed animation
  CHECK(baked.out == "slot,animation,bone,bone_name,channel,time,value\r\n,,,,x,0,0\r\n,,,,x,0.5,1\r\n,,,,x,1,2\r\n"
                     ",,,,x,1.5,3\r\n,,,,x,2,4\r\n,,,,y,0,7\r\n,,,,y,0.5,7\r\n,,,,y,1,7\r\n,,,,y,1.5,7\r\n,,,,y,2,7\r\n");

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
  CHECK(run({"pose", (dir / "gnt/files/chr/sas/0000.mot").string(), "--slot", "0", "--time", "0"}).code == kExitOk);
  CHECK(run({"pose", (dir / "rig.txt").string(), "--time", "0"}).code == kExitUsage);  // Kuper: convert it first
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
  CHECK(run({"pose", path, "--frame", "0"}).code == kExitUsage);                   // two animations, none chosen
  CHECK(run({"pose", path, "--anim", "second", "--frame", "5"}).code == kExitUsage);    // past the last frame
  CHECK(run({"pose", path, "--anim", "second", "--frame", "1.5"}).code == kExitUsage);  // not an integer frame
  CHECK(run({"pose", path, "--anim", "third", "--frame", "0"}).code == kExitUsage);
  // A time on a frame is that frame (60 fps unless --fps says otherwise), as for every Nitro kind.
  const auto at_time = run({"pose", path, "--anim", "second", "--time", "0.05", "--format", "json"});
  CHECK(nlohmann::json::parse(at_time.out)["nodes"][0]["T"] == nlohmann::json::array({1.5, -1.0, 0.0}));
  CHECK(run({"pose", path, "--anim", "second", "--time", "0.01"}).code == kExitUsage);  // between frames
  auto table = run({"pose", path, "--anim", "first", "--frame", "0", "--format", "csv"});
  // One column per component; the scale comes from the bind pose, which the file cannot give: empty.
  // `name` is the linked model's node name: empty, as no model lies beside this file.
  CHECK_THAT(table.out, Catch::StartsWith("node,node_id,name,T.x,T.y,T.z,R.m00,R.m01,R.m02,R.m10,R.m11,R.m12,R.m20,"
                                          "R.m21,R.m22,S.x,S.y,S.z\r\n") &&
                            Catch::Contains("\r\n0,3,,0,-1,0,0,1,0,-1,0,0,0,0,1,,,\r\n"));
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
  CHECK(run({"diff", "--db", both, "--from", "a", "--to", "zz"}).code == kExitUsage);  // names the dumps
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
        {"report", "reuse"}, {"report", "docs"}, {"diff"}, {"pose"}, {"export"}, {"convert"}, {"plot"}, {"sample"},
        {"demo"}}) {
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

namespace {

std::string error_line(const std::string& message) { return "animdex: error: " + message + "\n"; }

}  // namespace

TEST_CASE("an unknown verb suggests the nearest one", "[cli][help]") {
  auto typo = run_capturing({"indx", "dump", "--db", "x.db"});
  CHECK(typo.code == kExitUsage);
  CHECK(typo.err == error_line("unknown verb 'indx'; did you mean `index`? (`animdex --help` lists the verbs)"));
  CHECK(typo.out.empty());
  CHECK(run_capturing({"-v", "qeury", "bone-users"}).err ==
        error_line("unknown verb 'qeury'; did you mean `query`? (`animdex --help` lists the verbs)"));
  CHECK(run_capturing({"INDEX"}).err ==
        error_line("unknown verb 'INDEX'; did you mean `index`? (`animdex --help` lists the verbs)"));
  CHECK(run_capturing({"lss", "x.iso"}).err ==
        error_line("unknown verb 'lss'; did you mean `ls`? (`animdex --help` lists the verbs)"));
  // A mistyped verb before a word that is a verb, and a verb's mistyped option.
  CHECK(run_capturing({"qeury", "formats", "--db", "x.db"}).err ==
        error_line("unknown verb 'qeury'; did you mean `query`? (`animdex --help` lists the verbs)"));
  CHECK(run_capturing({"pose", "x.mot", "--frmae", "3"}).err ==
        error_line("unknown option '--frmae'; nearest: --frame (see `animdex pose --help`)"));
  CHECK(run_capturing({"pose", "x.mot", "--frame", "3", "4", "5"}).err ==
        error_line("unexpected 4 5: --time and --frame take one value each; repeat the option for more (--frame 3 "
                   "--frame 4) (see `animdex pose --help`)"));
  // A tie names each, in the order of --help.
  CHECK(run_capturing({"sl", "x.iso"}).err ==
        error_line("unknown verb 'sl'; did you mean `sql` or `ls`? (`animdex --help` lists the verbs)"));
  // Nothing near: no guess.
  auto far = run_capturing({"frobnicate"});
  CHECK(far.code == kExitUsage);
  CHECK(far.err == error_line("unknown verb 'frobnicate' (`animdex --help` lists the verbs)"));
  CHECK(run_capturing({"xx"}).err == error_line("unknown verb 'xx' (`animdex --help` lists the verbs)"));
  // A verb's own verbs.
  auto nested = run_capturing({"report", "reus", "--db", "x.db"});
  CHECK(nested.code == kExitUsage);
  CHECK(nested.err ==
        error_line("unknown verb 'report reus'; did you mean `report reuse`? (`animdex report --help` lists the verbs)"));
  CHECK(run_capturing({"report"}).err == error_line("no verb given; `animdex report --help` lists the verbs"));
  // No verb at all, or an option where the verb should be.
  auto none = run_capturing({});
  CHECK(none.code == kExitUsage);
  CHECK(none.err == error_line("no verb given; `animdex --help` lists the verbs"));
  auto option = run_capturing({"--db", "x.db"});
  CHECK(option.code == kExitUsage);
  CHECK(option.err == error_line("no verb given (`--db` is not an option of `animdex`; a verb's options follow it); "
                                 "`animdex --help` lists the verbs"));
  // Every verb, one letter short, is found again.
  for (const std::string verb : {"index", "query", "queries", "sql", "formats", "schema", "info", "report", "diff",
                                 "pose", "export", "convert", "ls", "extract", "sample", "demo"}) {
    if (verb.size() < 3) continue;
    const auto typed = verb.substr(0, verb.size() - 1);
    INFO(typed);
    CHECK(run_capturing({typed}).err ==
          error_line("unknown verb '" + typed + "'; did you mean `" + verb + "`? (`animdex --help` lists the verbs)"));
  }
}

TEST_CASE("verbose (-v) works before and after the verb", "[cli][help]") {
  test::TempDir dir;
  REQUIRE(run({"sample", (dir / "s").string(), "--characters", "1", "--no-problem-files"}).code == kExitOk);
  const auto db = (dir / "s.db").string();
  const auto index = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"index", (dir / "s").string(), "--db", db, "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());  // after the verb and its options
    return run_capturing(args);
  };
  const std::string said = "animdex: info: animdex " ANIMDEX_VERSION ", verb `index`\n";
  // Verbose index runs also say where the time went (pipeline.cpp), one line after the verb's.
  const auto said_by_index = [&](const std::string& err) {
    return err.starts_with(said + "animdex: info: index took ") && err.find(" files in flight: set-up ") != std::string::npos &&
           std::count(err.begin(), err.end(), '\n') == 2;
  };
  auto quiet = run_capturing({"index", (dir / "s").string(), "--db", db, "--quiet"});
  CHECK(quiet.code == kExitOk);
  CHECK(quiet.err.empty());
  for (const std::vector<std::string>& flag : {std::vector<std::string>{"-v"}, {"--verbose"}, {"--label", "x", "--allow-overlap", "-v"}}) {
    const auto after = index(flag);
    INFO(flag.back());
    CHECK(after.code == kExitOk);
    CHECK(said_by_index(after.err));
  }
  auto before = run_capturing({"-v", "index", (dir / "s").string(), "--db", db, "--quiet"});
  CHECK(before.code == kExitOk);
  CHECK(said_by_index(before.err));
  auto query = run_capturing({"query", "dumps", "--db", db, "--verbose", "--format", "csv"});
  CHECK(query.code == kExitOk);
  CHECK(query.err == "animdex: info: animdex " ANIMDEX_VERSION ", verb `query`\n");
  // A verb's own verb, with -v after either.
  const std::string reuse = "animdex: info: animdex " ANIMDEX_VERSION ", verb `report reuse`\n";
  CHECK(run_capturing({"report", "reuse", "--db", db, "-v"}).err == reuse);
  CHECK(run_capturing({"report", "-v", "reuse", "--db", db}).err == reuse);
  CHECK_THAT(run({"index", "--help"}).out, Catch::Contains("-v,--verbose"));
  // Other options still belong to their verb.
  CHECK(run_capturing({"index", (dir / "s").string(), "--db", db, "-x"}).err ==
        error_line("The following argument was not expected: -x (see `animdex index --help`)"));
}

TEST_CASE("a -p without a value says it needs NAME VALUE", "[cli][help]") {
  // The line is checked before any database is opened.
  auto end = run_capturing({"query", "bone-users", "--db", "missing.db", "-p", "bone"});
  CHECK(end.code == kExitUsage);
  CHECK(end.err == error_line("-p needs NAME VALUE (or NAME=VALUE): `-p bone` has no value (see `animdex query --help`)"));
  auto before_option = run_capturing({"query", "bone-users", "-p", "bone", "--format", "csv", "--db", "missing.db"});
  CHECK(before_option.code == kExitUsage);
  CHECK(before_option.err == end.err);
  CHECK(before_option.out.empty());
  auto bare = run_capturing({"query", "bone-users", "--db", "missing.db", "-p"});
  CHECK(bare.code == kExitUsage);
  CHECK(bare.err == error_line("-p needs NAME VALUE (or NAME=VALUE): `-p` has neither (see `animdex query --help`)"));
  CHECK(run_capturing({"query", "bone-users", "-p", "--db", "missing.db"}).err == bare.err);
  auto long_form = run_capturing({"sql", "SELECT :v", "--db", "missing.db", "-p", "v=1", "--param", "w"});
  CHECK(long_form.code == kExitUsage);
  CHECK(long_form.err ==
        error_line("--param needs NAME VALUE (or NAME=VALUE): `--param w` has no value (see `animdex sql --help`)"));

  // Complete forms still work: a negative number is a value, not an option.
  test::TempDir dir;
  REQUIRE(run({"sample", (dir / "s").string(), "--characters", "1", "--no-problem-files"}).code == kExitOk);
  const auto db = (dir / "s.db").string();
  REQUIRE(run({"index", (dir / "s").string(), "--db", db, "--quiet"}).code == kExitOk);
  CHECK(run({"sql", "SELECT :v AS v", "--db", db, "-p", "v", "-1", "--format", "csv"}).out == "v\r\n-1\r\n");
  CHECK(run({"sql", "SELECT :v AS v", "--db", db, "-p", "v=-1", "--format", "csv"}).out == "v\r\n-1\r\n");
  CHECK(run({"query", "bone-users", "--db", db, "-p", "bone=0", "-p", "dump", "NULL", "--format", "csv"}).code ==
        kExitOk);
  CHECK(run({"query", "bone-users", "--db", db, "--help", "-p", "bone", "1"}).code == kExitOk);
}

TEST_CASE("pose, export and convert on a file they do not read name every format they read", "[cli][help]") {
  test::TempDir dir;
  // The lists are the registry's: every format with the capability, in its order, and no other.
  const auto reads = [](auto capability) {
    std::vector<std::string> ids;
    for (const auto& format : registered_formats())
      if (format.*capability) ids.emplace_back(format.id);
    std::string text;
    for (std::size_t i = 0; i < ids.size(); ++i) text += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + ids[i];
    return text;
  };
  const auto pose_reads = reads(&FormatModule::pose);
  const auto export_reads = reads(&FormatModule::curves);
  const auto convert_reads = reads(&FormatModule::convert);
  CHECK_THAT(pose_reads, Catch::StartsWith("gnt_mot, lw_mot, lw_env, ") && Catch::EndsWith(", nsbtp and nsbma"));
  CHECK(convert_reads == "lw_mot, lw_env and lw_kuper");
  REQUIRE(run({"sample", (dir / "s").string(), "--characters", "1", "--no-problem-files", "--images",
               (dir / "images").string()})
              .code == kExitOk);
  const auto gnt = (dir / "s/files/chr/sas/0000.mot").string();
  const auto kuper = (dir / "rig.txt").string();
  test::write_text(kuper, "Axes = VTrack, VEW\r\n1 2\r\n");
  auto pose = run_capturing({"pose", kuper, "--frame", "1"});
  CHECK(pose.code == kExitUsage);
  CHECK(pose.err == error_line(kuper + ": is lw_kuper, which pose does not read; pose reads " + pose_reads + " "
                                       "(`animdex formats` lists every format)"));
  CHECK(run_capturing({"export", kuper, "--bake", "2"}).err ==
        error_line(kuper + ": is lw_kuper, which export does not read; export reads " + export_reads + " "
                           "(`animdex formats` lists every format)"));
  CHECK(run_capturing({"convert", gnt, (dir / "out.mot").string()}).err ==
        error_line(gnt + ": is gnt_mot, which convert does not read; convert reads " + convert_reads + " "
                         "(`animdex formats` lists every format)"));

  test::write_bytes(dir / "noise.bin", test::bytes_of("\x01\x02\x03 nothing known"));
  const auto noise = (dir / "noise.bin").string();
  auto unknown = run_capturing({"pose", noise, "--frame", "1"});
  CHECK(unknown.code == kExitUsage);
  CHECK(unknown.err == error_line(noise + ": is not of a known format; pose reads " + pose_reads + " "
                                          "(`animdex formats` lists every format)"));

  // A disc image: what it is and how to name a member inside it.
  const auto image = (dir / "images/gnt4.iso").string();
  auto container = run_capturing({"pose", image, "--frame", "1"});
  CHECK(container.code == kExitUsage);
  CHECK(container.err == error_line(image + ": is a disc image or archive (gcm), not an animation file; pose reads " + pose_reads + " "
                                            "(give a member as " + image + "/MEMBER; `animdex ls " + image +
                                    "` lists them)"));
  // A real image is larger than one animation file may be: still named for what it is (sparse here).
  const auto big = (dir / "big.iso").string();
  std::filesystem::copy_file(image, big);
  std::filesystem::resize_file(big, 64u << 20);
  auto large = run_capturing({"export", big, "--bake", "30"});
  CHECK(large.code == kExitUsage);
  CHECK(large.err == error_line(big + ": is a disc image or archive (gcm), not an animation file; export reads " + export_reads + " "
                                      "(give a member as " + big + "/MEMBER; `animdex ls " + big + "` lists them)"));
  // A member is named by what it is, like a file.
  const auto member = image + "/fpack/chr/sas1000.fpk/chr/sas/0000.mot";
  CHECK(run_capturing({"pose", member, "--slot", "0", "--frame", "1"}).code == kExitOk);  // as if it were a file
  const auto archive = image + "/fpack/chr/sas1000.fpk";
  CHECK(run_capturing({"pose", archive, "--frame", "1"}).err ==
        error_line(archive + ": is a disc image or archive (fpk), not an animation file; pose reads " + pose_reads + " (give a "
                             "member as " + archive + "/MEMBER; `animdex ls " + archive + "` lists them)"));
}

TEST_CASE("sample and demo --characters say the most they write", "[cli][help]") {
  test::TempDir dir;
  auto over = run_capturing({"sample", (dir / "s").string(), "--characters", "42"});
  CHECK(over.code == kExitUsage);
  CHECK(over.err == error_line("--characters: at most 41 characters (the GNT4 character list the sample draws on), "
                               "got 42 (see `animdex sample --help`)"));
  CHECK_FALSE(std::filesystem::exists(dir / "s"));
  CHECK(run_capturing({"sample", (dir / "s").string(), "-c", "100000000000000000000000"}).err ==
        error_line("--characters: at most 41 characters (the GNT4 character list the sample draws on), "
                   "got 100000000000000000000000 (see `animdex sample --help`)"));
  CHECK(run_capturing({"sample", (dir / "s").string(), "--characters", "0"}).err ==
        error_line("--characters: at least 1 character, got 0 (see `animdex sample --help`)"));
  CHECK(run_capturing({"sample", (dir / "s").string(), "--characters", "-3"}).err ==
        error_line("--characters: at least 1 character, got -3 (see `animdex sample --help`)"));
  CHECK(run_capturing({"sample", (dir / "s").string(), "--characters", "four"}).err ==
        error_line("--characters: expected a whole number of characters (1-41), got four (see `animdex sample --help`)"));
  auto demo = run_capturing({"demo", "--dir", (dir / "d").string(), "--characters", "99"});
  CHECK(demo.code == kExitUsage);
  CHECK(demo.err == error_line("--characters: at most 41 characters (the GNT4 character list the sample draws on), "
                               "got 99 (see `animdex demo --help`)"));
  CHECK_THAT(run({"sample", "--help"}).out, Catch::Contains("How many characters (1-41)"));

  // The most is written, every character once.
  auto most = run_capturing({"sample", (dir / "s").string(), "--characters", "41", "--no-problem-files"});
  CHECK(most.code == kExitOk);
  CHECK(most.err == "wrote " + (dir / "s").string() + " (82 files for 41 characters)\n");
  CHECK(kSampleCharacterLimit == 41);
}

TEST_CASE("the same roots keep their label and a parameter is given once and a value may start with a minus", "[cli][session]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 2;
  options.include_problem_files = false;
  write_sample_dump(dir / "dump", options);
  const std::string db = (dir / "s.db").string();
  REQUIRE(run({"index", (dir / "dump").string(), "--db", db, "--label", "default", "--quiet"}).code == kExitOk);
  // Without --label, roots already indexed under a label update that dump, never a second copy.
  const auto again = run_capturing({"index", (dir / "dump").string() + "/", "--db", db});
  CHECK(again.code == kExitOk);
  CHECK_THAT(again.err, Catch::Contains("already indexed as dump 'default': updating it"));
  CHECK(run({"sql", "SELECT group_concat(label) FROM dumps", "--db", db, "--format", "csv", "--no-header"}).out ==
        "default\r\n");

  const auto twice = run_capturing({"query", "bone-users", "--db", db, "-p", "bone", "1", "-p", "game", "kh2",
                                    "-p", "game", "gnt4"});
  CHECK(twice.code == kExitUsage);
  CHECK_THAT(twice.err, Catch::Contains("-p game is given twice ('kh2' and 'gnt4')"));
  CHECK(run({"sql", "SELECT :a", "--db", db, "-p", "a", "1", "-p", "a", "2"}).code == kExitUsage);

  // A LIKE pattern or a negative number is a value, not an option.
  const auto like = run({"sql", "SELECT COUNT(*) FROM files WHERE path NOT LIKE :p", "--db", db, "-p", "p", "-%",
                         "--format", "csv", "--no-header"});
  CHECK(like.code == kExitOk);
  CHECK(run({"sql", "SELECT :x * 2 AS v", "--db", db, "-p", "x", "-.5", "--format", "csv"}).out == "v\r\n-1\r\n");
  // An SQL expression prints as the sqlite3 shell does (15 digits); a stored value as it is stored.
  // An expression's double reads back as itself (issue 39; it was cut to 15 digits).
  CHECK(run({"sql", "SELECT 0.1 + 0.2 AS v", "--db", db, "--format", "csv"}).out == "v\r\n0.30000000000000004\r\n");

  // Defaults are typed in `queries --format json`: `dummies int = 0` is the number 0.
  const auto listing = nlohmann::json::parse(run({"queries", "--format", "json"}).out);
  for (const auto& query : listing)
    for (const auto& parameter : query["parameters"])
      if (parameter["name"] == "dummies") CHECK(parameter["default"] == 0);
  const auto missing_db = run_capturing({"query", "dumps"});
  CHECK(missing_db.code == kExitUsage);
  CHECK_THAT(missing_db.err, Catch::Contains("ANIMDEX_DB"));
}

TEST_CASE("usage errors say what to give: --no-header outside csv/tsv, a name two cases match, a DS query's animation",
          "[cli][session]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 2;
  options.include_problem_files = false;
  options.include_kh2 = options.include_nsbca = true;
  write_sample_dump(dir / "dump", options);
  const std::string db = (dir / "s.db").string();
  REQUIRE(run({"index", (dir / "dump").string(), "--db", db, "--quiet"}).code == kExitOk);

  const auto no_header = run_capturing({"query", "characters", "--db", db, "--no-header"});
  CHECK(no_header.code == kExitUsage);
  CHECK_THAT(no_header.err, Catch::Contains("--no-header") && Catch::Contains("applies to --format csv and tsv only"));
  CHECK(run({"query", "characters", "--db", db, "--format", "json", "--no-header"}).code == kExitUsage);
  CHECK(run({"query", "characters", "--db", db, "--format", "tsv", "--no-header"}).code == kExitOk);
  // Format names are taken in any case, as the help says (`CSV` is csv, not a table).
  const auto upper = run({"query", "characters", "--db", db, "--format", "CSV", "--no-header"});
  CHECK(upper.code == kExitOk);
  CHECK_THAT(upper.out, Catch::StartsWith("gnt4,hak,Haku,"));

  // Two characters that differ only in case: neither is guessed.
  std::filesystem::copy(dir / "dump/files/chr/hak", dir / "dump/files/chr/HAK", std::filesystem::copy_options::recursive);
  REQUIRE(run({"index", (dir / "dump").string(), "--db", db, "--quiet"}).code == kExitOk);
  const auto ambiguous = run_capturing({"query", "animations", "--db", db, "-p", "character", "Hak"});
  CHECK(ambiguous.code == kExitUsage);
  CHECK_THAT(ambiguous.err, Catch::Contains("-p character 'Hak' matches several character values ignoring case; "
                                            "give one exactly: HAK, hak"));

  // nsbca-nodes reads NSBCA files (`-- formats: nsbca`): the names it offers are theirs, not GNT's or KH2's.
  const auto unknown = run_capturing({"query", "nsbca-nodes", "--db", db, "-p", "animation", "nosuch"});
  CHECK(unknown.code == kExitUsage);
  CHECK_THAT(unknown.err, Catch::EndsWith("(among nsbca files, what query 'nsbca-nodes' reads) (-p animation); "
                                          "there are: close, open\n"));
  CHECK(run({"query", "nsbca-nodes", "--db", db, "-p", "animation", "IDLE"}).code == kExitUsage);
  CHECK(run({"query", "nsbca-nodes", "--db", db, "-p", "animation", "open", "--format", "csv"}).code == kExitOk);
  const auto listing = nlohmann::json::parse(run({"queries", "--format", "json"}).out);
  for (const auto& query : listing)
    if (query["name"] == "nsbca-nodes") CHECK(query["formats"] == nlohmann::json::array({"nsbca"}));
  CHECK_THAT(run({"queries", "nsbca-nodes"}).out, Catch::Contains("\nformats: nsbca\n"));
  // KH2 slot queries read motion sets: a GNT file is not silently an empty answer.
  const auto gnt_file = run_capturing({"query", "dummy-slots", "--db", db, "-p", "file", "hak/0000"});
  CHECK(gnt_file.code == kExitUsage);
  CHECK_THAT(gnt_file.err, Catch::Contains("(among kh2_mset, kh2_bar files, what query 'dummy-slots' reads)"));
  // A misspelt format in a user's query is named, not a check that matches nothing.
  test::write_text(dir / "mine.sql", "-- description: mine\n-- formats: nsbac\n-- param: file text = NULL  f\nSELECT 1;\n");
  const auto misspelt = run_capturing({"query", (dir / "mine.sql").string(), "--db", db});
  CHECK(misspelt.code == kExitUsage);
  CHECK_THAT(misspelt.err, Catch::Contains("names 'nsbac', which is no format animdex knows"));
}

TEST_CASE("pose names the nested slot a motion-set slot number stands for", "[cli][kh2]") {
  test::TempDir dir;
  test::write_clean_sample(dir / "s", 1, true);
  // M_SAMPLE holds a nested set in slot 3 whose slot 1 has a motion; top-level slot 1 is no motion.
  const auto asked = run_capturing({"pose", (dir / "s/kh2/obj/M_SAMPLE.mset").string(), "--slot", "1", "--frame", "0"});
  CHECK(asked.code == kExitUsage);
  CHECK_THAT(asked.err, Catch::Contains("the nested set in slot 3 has a slot 1 with a motion: --slot 3/1"));
  CHECK(run({"pose", (dir / "s/kh2/obj/M_SAMPLE.mset").string(), "--slot", "3/1", "--frame", "0"}).code == kExitOk);
  // The slot that holds the nested set names the slots inside it.
  const auto parent = run_capturing({"pose", (dir / "s/kh2/obj/M_SAMPLE.mset").string(), "--slot", "3", "--frame", "0"});
  CHECK(parent.code == kExitUsage);
  CHECK_THAT(parent.err, Catch::Contains("; slot 3 holds a nested motion set, whose motions are: --slot 3/1"));
}

TEST_CASE("pose's slot hints name twelve slots, else ten, the last and their count", "[cli][kh2]") {
  test::TempDir dir;
  // Slot 1 holds a nested set of 20 motions: a file decides how many, the message does not grow with it.
  const auto set = kh2::write_bar({{kh2::kTypeAnb, 0, "A000", kh2::build_anb(kh2::build_interpolated_motion(24, {0})), -1},
                                   {kh2::kTypeMotionset, 0, "NEST", kh2::build_motion_set(std::string(20, 'A'), 0), -1}},
                                  0);
  test::write_bytes(dir / "M_MANY.mset", set);
  const auto asked = run_capturing({"pose", (dir / "M_MANY.mset").string(), "--slot", "1", "--frame", "0"});
  CHECK(asked.code == kExitUsage);
  CHECK_THAT(asked.err, Catch::Contains("whose motions are: --slot 1/0, 1/1, 1/2, 1/3, 1/4, 1/5, 1/6, 1/7, 1/8, 1/9, "
                                        "..., 1/19 (20 motions in all)"));
  CHECK_THAT(asked.err, Catch::Contains("slots with motions: 0, 1/0, 1/1, 1/2, 1/3, 1/4, 1/5, 1/6, 1/7, 1/8, "
                                        "..., 1/19 (21 motions in all)"));
}

TEST_CASE("a command line gives back the logger it found: the process can log after it", "[cli]") {
  const auto before = spdlog::default_logger();
  REQUIRE(before);
  CHECK(run({"--version"}).code == kExitOk);
  CHECK(spdlog::default_logger() == before);
  // What crashed when the command line's logger was dropped with nothing put back.
  spdlog::info("logged after a command line");
  CHECK(run({"--version"}).code == kExitOk);
  CHECK(spdlog::default_logger() == before);
}
