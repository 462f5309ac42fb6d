// `animdex plot` end to end on the sample's GNT, KH2 and NSBCA files: the page, its charts, and
// the exit codes (2 usage, 3 broken file), the slots listed when a file's page would pass 1 MB.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/exit_codes.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "support/cli_run.h"
#include "support/gnt_builders.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

using test::read_text;
using test::count_of;

using test::run;
using test::run_capturing;

// A GNT file of `animations` animations of 30 bones with 60 keys each: about 1.3 MB of page for 10.
std::filesystem::path large_mot(const std::filesystem::path& path, std::uint32_t animations) {
  gnt_mot::MotFile file;
  file.slot_count = 0x200;
  std::vector<std::int64_t> frames;
  for (std::int64_t f = 0; f < 120; f += 2) frames.push_back(f);
  for (std::uint32_t id = 0; id < animations; ++id) {
    std::vector<gnt_mot::BoneSpec> bones;
    for (std::uint16_t bone = 0; bone < 30; ++bone) bones.push_back(test::rotation_track(bone, frames, 0.1F * bone));
    file.animations.push_back(test::gnt_animation(id, 118, bones));
  }
  test::write_bytes(path, gnt_mot::write_mot(file));
  return path;
}

}  // namespace

TEST_CASE("plot draws a GNT file's animations on one page, bones named", "[cli][plot]") {
  test::TempDir dir;
  REQUIRE(run({"sample", (dir / "s").string(), "--characters", "2", "--kh2", "--nsbca"}).code == kExitOk);
  const auto mot = (dir / "s/files/chr/sas/0000.mot").string();
  const auto page = dir / "sas.html";
  auto plotted = test::run_capturing({"plot", mot, "--out", page.string()});
  REQUIRE(plotted.code == kExitOk);
  CHECK(plotted.out.empty());
  CHECK_THAT(plotted.err, Catch::StartsWith("wrote " + page.string() + " (") && Catch::Contains(" animations, "));
  const std::string html = read_text(page);
  // One section per animation, each a chart per bone: bone 0 is GNT4's "Y" (the root).
  CHECK_THAT(html, Catch::Contains("<h2 id=\"a0\">slot 0: 0x0000 (Idle)</h2>") && Catch::Contains(">bone 0 (Y)</text>"));
  CHECK(count_of(html, "<h2 id=\"a") > 1);
  CHECK(count_of(html, "<polyline class=\"mark") >= count_of(html, "<svg class=\"chart curve\""));
  CHECK(count_of(html, "<path class=\"keys c") > 0);
  CHECK_THAT(html, Catch::Contains(" s, frame ") && Catch::Contains("seconds; 60 frames/s"));
  CHECK(html.size() < 1'000'000);

  // One animation by its ID.
  REQUIRE(run({"plot", mot, "--slot", "0x0", "--out", (dir / "idle.html").string()}).code == kExitOk);
  const std::string idle = read_text(dir / "idle.html");
  CHECK(count_of(idle, "<h2 id=\"a") == 1);
  CHECK_THAT(idle, Catch::Contains("holds one animation"));
}

TEST_CASE("plot draws KH2 and NSBCA files", "[cli][plot]") {
  test::TempDir dir;
  REQUIRE(run({"sample", (dir / "s").string(), "--characters", "2", "--kh2", "--nsbca"}).code == kExitOk);
  const auto mset = (dir / "s/kh2/obj/P_SAMPLE.mset").string();
  REQUIRE(run({"plot", mset, "--out", (dir / "p.html").string()}).code == kExitOk);
  const std::string kh2 = read_text(dir / "p.html");
  CHECK_THAT(kh2, Catch::Contains("<h2 id=\"a0\">slot ") && Catch::Contains("<svg class=\"chart curve\""));
  REQUIRE(run({"plot", (dir / "s/kh2/anm/S_SAMPLE.anb").string(), "--out", (dir / "anb.html").string()}).code == kExitOk);
  CHECK(count_of(read_text(dir / "anb.html"), "<polyline class=\"mark") > 0);

  const auto nsbca = (dir / "s/nds/data/door.nsbca").string();
  REQUIRE(run({"plot", nsbca, "--anim", "open", "--out", (dir / "door.html").string()}).code == kExitOk);
  const std::string door = read_text(dir / "door.html");
  CHECK(count_of(door, "<h2 id=\"a") == 1);
  CHECK_THAT(door, Catch::Contains(">node ") && Catch::Contains("R.m00"));
}

TEST_CASE("plot exits 2 on a usage error and 3 on a broken file", "[cli][plot]") {
  test::TempDir dir;
  REQUIRE(run({"sample", (dir / "s").string(), "--characters", "2"}).code == kExitOk);
  const auto mot = (dir / "s/files/chr/sas/0000.mot").string();
  const auto out = (dir / "x.html").string();
  auto missing_slot = run_capturing({"plot", mot, "--slot", "999", "--out", out});
  CHECK(missing_slot.code == kExitUsage);
  CHECK_THAT(missing_slot.err, Catch::Contains("no animation 999"));
  CHECK(run({"plot", (dir / "nope.mot").string(), "--out", out}).code == kExitUsage);
  CHECK(run({"plot", mot, "--slot", "0", "--anim", "x", "--out", out}).code == kExitUsage);
  CHECK(run({"plot", mot}).code == kExitUsage);  // --out is required
  test::write_bytes(dir / "noise.bin", test::bytes_of("\x01\x02\x03 nothing known"));
  auto unknown = run_capturing({"plot", (dir / "noise.bin").string(), "--out", out});
  CHECK(unknown.code == kExitUsage);
  CHECK_THAT(unknown.err, Catch::Contains("is not of a known format; plot reads "));
  CHECK(run({"plot", (dir / "s/files/chr/bad/0000.mot").string(), "--out", out}).code == kExitFileErrors);
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("plot asks for --slot when the whole file's page would pass 1 MB", "[cli][plot]") {
  test::TempDir dir;
  const auto mot = large_mot(dir / "big.mot", 12).string();
  const auto out = (dir / "big.html").string();
  auto refused = run_capturing({"plot", mot, "--out", out});
  CHECK(refused.code == kExitUsage);
  CHECK_THAT(refused.err, Catch::Contains("over 1 MB; plot one at a time with --slot S") &&
                              Catch::Contains("It holds: slot 0: 0x0000 (Idle); slot 1: 0x0001 (Walk Forward); ") &&
                              Catch::Contains("; slot 11: 0x000B"));
  CHECK_FALSE(std::filesystem::exists(out));
  auto one = run({"plot", mot, "--slot", "11", "--out", out});
  CHECK(one.code == kExitOk);
  const std::string html = read_text(out);
  CHECK(html.size() < 1'000'000);
  CHECK(count_of(html, "<svg class=\"chart curve\"") == 30);
}

TEST_CASE("a plot page title names the file and its animation, KH2 slots labelled as the docs label them", "[cli][plot]") {
  test::TempDir dir;
  REQUIRE(run({"sample", (dir / "s").string(), "--characters", "1", "--kh2"}).code == kExitOk);
  const auto set = (dir / "s/kh2/obj/P_SAMPLE.mset").string();
  REQUIRE(run({"plot", set, "--slot", "0", "--out", (dir / "one.html").string()}).code == kExitOk);
  CHECK_THAT(read_text(dir / "one.html"), Catch::Contains("<title>" + set + ": slot 0: A0 (IDLE)</title>"));
  REQUIRE(run({"plot", set, "--out", (dir / "all.html").string()}).code == kExitOk);
  const auto all = read_text(dir / "all.html");
  CHECK_THAT(all, Catch::Contains("<title>" + set + ": 11 animations</title>") &&
                      Catch::Contains(">slot 4: A4 (WALK)</h2>"));
}
