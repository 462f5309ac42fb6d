// `view`, and the players `plot` writes beside its page: what the page holds, what is refused, and
// names from a file reaching the page only as text. The browser plays them in
// tests/rig/player_browser_check.py.
#include <catch2/catch.hpp>

#include "cli/file_export.h"
#include "reports/player_page.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

struct Sample {
  test::TempDir dir;
  std::string set, mot;
  Sample() {
    test::write_clean_sample(dir / "s", 1, true);
    set = (dir / "s/kh2/obj/P_SAMPLE.mset").string();
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir / "s/files/chr"))
      if (entry.path().filename() == "0000.mot") mot = entry.path().string();
  }
  std::string out(const std::string& name) const { return (dir / name).string(); }
};

const std::string kCamera = "LWMO\n1\n9\n2\n0 0 0 0 0 0 1 1 1\n0 0 0 0 0\n1 2 3 0 0 0 1 1 1\n30 0 0 0 0\n";

}  // namespace

TEST_CASE("view writes one page holding the .glb, every animation and the joints' names", "[cli][view]") {
  Sample sample;
  const auto run = test::run_capturing({"view", sample.set, "--out", sample.out("p.html")});
  REQUIRE(run.code == 0);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::StartsWith("wrote " + sample.out("p.html")) && Catch::Contains(", 11 animations)\n") &&
                          Catch::Contains("animdex: note: The skeleton: ") && Catch::Contains("P_SAMPLE.mdlx (32 joints)."));
  const auto page = test::read_text(sample.out("p.html"));
  CHECK_THAT(page, Catch::Contains(std::string(reports::kPlayerGenerator)));
  CHECK_THAT(page, Catch::Contains("const ANIMDEX_PLAYER = {\"animations\":[{\"first\":0.0,\"fps\":30.0,"));
  CHECK_THAT(page, Catch::Contains("\"glb\":\"Z2xURg"));  // base64 of "glTF"
  CHECK_THAT(page, Catch::Contains("\"joints\":[\"bone 0\",\"bone 1\","));
  CHECK(test::count_of(page, "\"frames\":") == 11);
  CHECK_THAT(page, Catch::Contains("REVISION") && Catch::Contains("THREE.GLTFLoader"));  // the scripts inlined
  // One animation by slot.
  const auto one = test::run({"view", sample.set, "--slot", "0", "--out", sample.out("one.html")});
  REQUIRE(one.code == 0);
  CHECK(test::count_of(test::read_text(sample.out("one.html")), "\"frames\":") == 1);
}

TEST_CASE("view refuses what has no skeleton and the file it reads, writing nothing", "[cli][view]") {
  Sample sample;
  const auto gnt = test::run_capturing({"view", sample.mot, "--out", sample.out("g.html")});
  CHECK(gnt.code == 2);
  CHECK_THAT(gnt.err, Catch::Contains("a GNT motion has no skeleton in what animdex reads"));
  CHECK(test::run({"view", sample.set, "--out", sample.set}).code == 2);
  CHECK_FALSE(std::filesystem::exists(sample.out("g.html")));
}

TEST_CASE("hostile names in a node and an animation reach the page only as text", "[cli][view]") {
  Sample sample;
  // A LightWave motion is one node named after its file, and so is its animation.
  const auto hostile = sample.out("<b id=\"x\">'&<script>alert(1)<\\script>.mot");
  test::write_text(hostile, kCamera);
  const auto run = test::run({"view", hostile, "--out", sample.out("h.html")});
  REQUIRE(run.code == 0);
  const auto page = test::read_text(sample.out("h.html"));
  CHECK(page.find("<b id") == std::string::npos);
  CHECK(page.find("<script>alert") == std::string::npos);
  CHECK_THAT(page, Catch::Contains("&lt;b id=&quot;x&quot;&gt;'&amp;&lt;script&gt;"));   // title and notes
  CHECK_THAT(page, Catch::Contains("\\u003cb id=\\\"x\\\">'&\\u003cscript>alert(1)\\u003c\\\\script>.mot"));  // JSON
}

TEST_CASE("plot writes the file's player beside its page and links each animation to it", "[cli][view][plot]") {
  Sample sample;
  const auto run = test::run_capturing({"plot", sample.set, "--out", sample.out("p.html")});
  REQUIRE(run.code == 0);
  CHECK_THAT(run.err, Catch::Contains("wrote " + sample.out("p.player.html") + " (the 3D player"));
  CHECK_THAT(test::read_text(sample.out("p.html")), Catch::Contains("href=\"p.player.html#anim=0%20A0\">Play it in 3D"));
  CHECK_THAT(test::read_text(sample.out("p.player.html")), Catch::Contains("<a href=\"p.html\">Back</a>"));
  // Again: its own player is replaced. A file of the user's there is left alone.
  REQUIRE(test::run({"plot", sample.set, "--out", sample.out("p.html")}).code == 0);
  test::write_text(sample.out("q.player.html"), "mine");
  const auto kept = test::run_capturing({"plot", sample.set, "--out", sample.out("q.html")});
  REQUIRE(kept.code == 0);
  CHECK_THAT(kept.err, Catch::Contains("no 3D player: " + sample.out("q.player.html") + " exists and is not a player "
                                       "animdex wrote; it is left alone"));
  CHECK(test::read_text(sample.out("q.player.html")) == "mine");
  CHECK(test::read_text(sample.out("q.html")).find("Play it in 3D") == std::string::npos);
  // A file with no skeleton: no player, and the page says nothing of one.
  const auto gnt = test::run_capturing({"plot", sample.mot, "--out", sample.out("g.html")});
  REQUIRE(gnt.code == 0);
  CHECK_THAT(gnt.err, Catch::Contains("no 3D player: ") && Catch::Contains("has no skeleton"));
  CHECK_FALSE(std::filesystem::exists(sample.out("g.player.html")));
}

TEST_CASE("a file's animations stop at its budget: the rest are listed, the file stays under it", "[cli][view][gltf]") {
  Sample sample;
  PoseRequest every;
  // At 2000 samples a second the sample's 11 motions take about 160 KB; each could take up to 900 KB.
  const auto request = request_of(sample.set, every, 2000.0);
  auto done = export_file(sample.set, request, {}, "export --gltf", 1'000'000);
  REQUIRE(std::holds_alternative<Exported>(done));
  const auto& exported = std::get<Exported>(done);
  CHECK(exported.animations.size() > 1);
  CHECK_FALSE(exported.over_budget.empty());
  CHECK(exported.animations.size() + exported.over_budget.size() == 11);
  CHECK(exported.writer->bytes(true).size() <= 1'000'000);
  CHECK(exported.writer->approximate_size() >= exported.writer->bytes(true).size());
  // The first animation goes in whatever the budget: one animation's size is bounded by the samples budget.
  auto tiny = export_file(sample.set, request, {}, "export --gltf", 1);
  REQUIRE(std::holds_alternative<Exported>(tiny));
  CHECK(std::get<Exported>(tiny).animations.size() == 1);
  CHECK(std::get<Exported>(tiny).over_budget.size() == 10);
}

TEST_CASE("diff --format html --out plays a changed animation's before and after in one player beside it",
          "[cli][view][diff]") {
  Sample sample;
  std::filesystem::copy(sample.dir / "s", sample.dir / "t", std::filesystem::copy_options::recursive);
  // One key value of the KH2 set's slot 0 (the float32 0.5, stored once) becomes 0.75.
  auto bytes = test::read_text(sample.out("t/kh2/obj/P_SAMPLE.mset"));
  const std::string half("\x00\x00\x00\x3f", 4), three_quarters("\x00\x00\x40\x3f", 4);
  REQUIRE(test::count_of(bytes, half) == 1);
  bytes.replace(bytes.find(half), 4, three_quarters);
  test::write_text(sample.out("t/kh2/obj/P_SAMPLE.mset"), bytes);
  REQUIRE(test::run({"index", sample.out("s"), "--db", sample.out("s.db"), "--label", "old"}).code == 0);
  REQUIRE(test::run({"index", sample.out("t"), "--db", sample.out("t.db"), "--label", "new"}).code == 0);
  std::filesystem::create_directories(sample.dir / "d");
  const auto diff = test::run_capturing({"diff", sample.out("s.db"), sample.out("t.db"), "--format", "html", "--out",
                                         sample.out("d/ch.html")});
  REQUIRE(diff.code == 0);
  CHECK_THAT(diff.err, Catch::Contains("wrote " + sample.out("d/ch.players") + " (1 3D player)"));
  CHECK_THAT(test::read_text(sample.out("d/ch.html")),
             Catch::Contains("<a class=\"player\" href=\"ch.players/kh2_obj_P_SAMPLE.mset.html#anim=0%20A0\">"
                             "kh2/obj/P_SAMPLE.mset 0 (IDLE)</a>"));
  const auto page = test::read_text(sample.out("d/ch.players/kh2_obj_P_SAMPLE.mset.html"));
  CHECK_THAT(page, Catch::Contains(std::string(reports::kPlayerGenerator)) &&
                       Catch::Contains("<a href=\"../ch.html\">Back</a>") &&
                       Catch::Contains("Before, old, in blue; after, new, in red."));
  // Two rigs, each a .glb; the one changed animation, played by clip 0 of each.
  CHECK(test::count_of(page, "\"glb\":\"Z2xURg") == 2);
  CHECK_THAT(page, Catch::Contains("\"label\":\"before\"") && Catch::Contains("\"label\":\"after\""));
  CHECK(test::count_of(page, "\"name\":\"0 A0\"") == 3);  // the choice and each side
  CHECK(test::count_of(page, "\"clip\":0") == 2);
  // A file of the user's where the player would go is left alone, and the page links no player.
  std::filesystem::create_directories(sample.dir / "e/ch.players");
  test::write_text(sample.out("e/ch.players/kh2_obj_P_SAMPLE.mset.html"), "mine");
  const auto kept = test::run_capturing({"diff", sample.out("s.db"), sample.out("t.db"), "--format", "html", "--out",
                                         sample.out("e/ch.html")});
  REQUIRE(kept.code == 0);
  CHECK_THAT(kept.err, Catch::Contains("1 changed file without a 3D player: kh2/obj/P_SAMPLE.mset: " +
                                       sample.out("e/ch.players/kh2_obj_P_SAMPLE.mset.html") +
                                       " exists and is not a player animdex wrote; it is left alone"));
  CHECK(test::read_text(sample.out("e/ch.players/kh2_obj_P_SAMPLE.mset.html")) == "mine");
  CHECK(test::read_text(sample.out("e/ch.html")).find("class=\"player\"") == std::string::npos);
  // On standard output there is no folder for players: the page says how to get them.
  const auto shown = test::run({"diff", sample.out("s.db"), sample.out("t.db"), "--format", "html"});
  REQUIRE(shown.code == 0);
  CHECK_THAT(shown.out, Catch::Contains("With --out PAGE.html, diff also writes 3D players"));
}
