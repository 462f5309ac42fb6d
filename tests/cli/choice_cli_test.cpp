// Issue 39 item 3: no silent choices in pose, plot and export. Several animations and no --slot or
// --anim is an error that lists them; --slot and --anim that disagree, or one the format does not
// choose by, are usage errors; a time past the keys says so on stderr with the rule that applies.
#include <catch2/catch.hpp>

#include "cli/exit_codes.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

struct Sample {
  test::TempDir dir;
  std::string mot, mset, door;
  Sample() {
    REQUIRE(test::run({"sample", (dir / "s").string(), "--kh2", "--nsbca"}).code == 0);
    mot = (dir / "s/files/chr/nar/0000.mot").string();
    mset = (dir / "s/kh2/obj/P_SAMPLE.mset").string();
    door = (dir / "s/nds/data/door.nsbca").string();
  }
};

}  // namespace

TEST_CASE("pose of a file with several animations and no choice lists them instead of taking the first",
          "[cli][pose][choice]") {
  Sample sample;
  const auto gnt = test::run_capturing({"pose", sample.mot, "--frame", "0"});
  CHECK(gnt.code == kExitUsage);
  CHECK(gnt.out.empty());
  CHECK(gnt.err.find("choose one with --slot ID (0x0000, ") != std::string::npos);
  const auto ds = test::run_capturing({"pose", sample.door, "--frame", "0"});
  CHECK(ds.code == kExitUsage);
  CHECK(ds.err.find("choose one with --anim NAME (") != std::string::npos);
  CHECK(ds.err.find("open") != std::string::npos);
  const auto kh2 = test::run_capturing({"pose", sample.mset, "--frame", "0"});
  CHECK(kh2.code == kExitUsage);
  CHECK(kh2.err.find("choose one with --slot N or --anim TAG") != std::string::npos);
  // plot and export with no choice take every animation: nothing is chosen silently there.
  CHECK(test::run({"export", sample.mot, "--bake", "10"}).code == kExitOk);
}

TEST_CASE("an option the format does not choose by, or two that disagree, is a usage error", "[cli][pose][choice]") {
  Sample sample;
  const auto slot_on_ds = test::run_capturing({"pose", sample.door, "--slot", "0", "--frame", "0"});
  CHECK(slot_on_ds.code == kExitUsage);
  CHECK(slot_on_ds.err.find("nsbca files do not choose animations by --slot; choose with --anim") != std::string::npos);
  const auto anim_on_gnt = test::run_capturing({"plot", sample.mot, "--anim", "x", "--out", (sample.dir / "p.html").string()});
  CHECK(anim_on_gnt.code == kExitUsage);
  CHECK(anim_on_gnt.err.find("gnt_mot files do not choose animations by --anim; choose with --slot") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(sample.dir / "p.html"));
  const auto disagree = test::run_capturing({"pose", sample.mset, "--slot", "0", "--anim", "NOPE", "--frame", "0"});
  CHECK(disagree.code == kExitUsage);
  CHECK(disagree.err.find("not 'NOPE'") != std::string::npos);
}

TEST_CASE("a time past the keys is answered with a note naming the rule there", "[cli][pose][choice]") {
  Sample sample;
  const auto past = test::run_capturing({"pose", sample.mot, "--slot", "0x90", "--time", "100", "--format", "csv"});
  CHECK(past.code == kExitOk);
  CHECK(past.err.find("animdex: note: time 100 s is after the keys of 0x0090") != std::string::npos);
  CHECK(past.err.find("GNT holds the last key's values there") != std::string::npos);
  const auto inside = test::run_capturing({"pose", sample.mot, "--slot", "0x90", "--frame", "1"});
  CHECK(inside.err.empty());
}
