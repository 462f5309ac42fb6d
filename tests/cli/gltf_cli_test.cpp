// `export --gltf` and `pose --world` from the command line: the skeleton found beside the file,
// the file written only when everything in it could be, and each bad input a clear error.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "formats/kh2/kh2_mdlx_writer.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

struct Sample {
  test::TempDir dir;
  std::string set, model, door, camera, mot;
  Sample() {
    test::write_clean_sample(dir / "s", 1, true);
    set = (dir / "s/kh2/obj/P_SAMPLE.mset").string();
    model = (dir / "s/kh2/obj/P_SAMPLE.mdlx").string();
    door = (dir / "s/nds/data/door.nsbca").string();
    camera = (dir / "camera.mot").string();  // the clean sample has no LightWave file: the problem sample's
    test::write_text(camera, "LWMO\n1\n9\n2\n0 0 0 0 0 0 1 1 1\n0 0 0 0 0\n1 2 3 0 0 0 1 1 1\n30 0 0 0 0\n");
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir / "s/files/chr"))
      if (entry.path().filename() == "0000.mot") mot = entry.path().string();
  }
  std::string out(const std::string& name) const { return (dir / name).string(); }
};

}  // namespace

TEST_CASE("export --gltf finds the skeleton beside the file and writes every animation on it", "[cli][gltf]") {
  Sample sample;
  // What was written is said on stderr, the one way every verb says it (issue 39).
  const auto kh2 = test::run_capturing({"export", sample.set, "--gltf", sample.out("p.glb")});
  REQUIRE(kh2.code == 0);
  CHECK(kh2.out.empty());
  CHECK_THAT(kh2.err, Catch::StartsWith("wrote " + sample.out("p.glb") + " (11 animations on ") &&
                          Catch::Contains("P_SAMPLE.mdlx, 32 joints)"));
  CHECK(test::read_text(sample.out("p.glb")).substr(0, 4) == "glTF");
  const auto ds = test::run_capturing({"export", sample.door, "--gltf", sample.out("door.gltf")});
  REQUIRE(ds.code == 0);
  CHECK_THAT(ds.err, Catch::Contains("2 animations on") && Catch::Contains("door.nsbmd, 3 joints)"));
  CHECK_THAT(test::read_text(sample.out("door.gltf")), Catch::Contains("\"name\":\"handle\""));
  const auto lw = test::run_capturing({"export", sample.camera, "--gltf", sample.out("camera.glb"), "--rate", "10"});
  REQUIRE(lw.code == 0);
  CHECK_THAT(lw.err, Catch::Contains("1 animation on") && Catch::Contains(", 1 joint)"));
}

TEST_CASE("a LightWave motion is one node, right-handed: z changes sign", "[cli][gltf]") {
  Sample sample;
  // Key 2 at frame 30 (1 s at LightWave's 30 per second) moves the camera to (1, 2, 3).
  const auto end = test::run({"pose", sample.camera, "--world", "--time", "1", "--format", "csv"});
  REQUIRE(end.code == 0);
  CHECK_THAT(end.out, Catch::Contains("\n0,camera.mot,,1,2,-3,"));
  // --fps counts version-1 frames as it does for pose: at 60 per second frame 30 is 0.5 s.
  const auto fast = test::run({"pose", sample.camera, "--world", "--fps", "60", "--time", "0.5", "--format", "csv"});
  REQUIRE(fast.code == 0);
  CHECK_THAT(fast.out, Catch::Contains("\n0,camera.mot,,1,2,-3,"));
}

TEST_CASE("pose --world gives world positions: at a key's frame, bind pose plus the key", "[cli][gltf]") {
  Sample sample;
  // The sample's door: node 1 (hinge) sits at (0, 1.5, 0) plus its slide at frame 0.
  const auto door = test::run({"pose", sample.door, "--world", "--anim", "open", "--frame", "0", "--format", "csv"});
  REQUIRE(door.code == 0);
  CHECK_THAT(door.out, Catch::StartsWith("node,name,parent,P.x,P.y,P.z,M.m00"));
  CHECK_THAT(door.out, Catch::Contains("\n1,hinge,0,0,1.5,0,"));
  // Without --frame: every frame, each row led by its time.
  const auto every = test::run({"pose", sample.door, "--world", "--anim", "open", "--format", "csv"});
  REQUIRE(every.code == 0);
  CHECK(test::count_of(every.out, "\n") == 1 + 8 * 3);
  // A model file alone: its bind pose in world space (the chain: joint 1 is 10 along x).
  const auto bind = test::run({"pose", sample.model, "--world", "--format", "csv"});
  REQUIRE(bind.code == 0);
  CHECK_THAT(bind.out, Catch::Contains("\n0,bone 0,,0,0,0,"));
  CHECK_THAT(bind.out, Catch::Contains("\n1,bone 1,0,10,0,0,"));
}

TEST_CASE("what cannot be exported says why, exits 2 and writes nothing", "[cli][gltf]") {
  Sample sample;
  const auto gnt = test::run_capturing({"export", sample.mot, "--gltf", sample.out("g.glb")});
  CHECK(gnt.code == 2);
  CHECK_THAT(gnt.err, Catch::Contains("a GNT motion has no skeleton in what animdex reads"));
  // A model whose bone count differs from the motion's.
  const auto small = sample.out("small.mdlx");
  test::write_bytes(small, kh2::write_mdlx(kh2::chain_skeleton(24)));
  const auto misfit = test::run_capturing({"export", sample.set, "--slot", "0", "--model", small, "--gltf", sample.out("m.glb")});
  CHECK(misfit.code == 2);
  CHECK_THAT(misfit.err, Catch::Contains("'0 A0' animates 32 joints; the model 'SMALL' has 24"));
  // With no model beside it and none given.
  const auto lonely = sample.out("lonely.mset");
  std::filesystem::copy_file(sample.set, lonely);
  const auto unlinked = test::run_capturing({"export", lonely, "--gltf", sample.out("l.glb")});
  CHECK(unlinked.code == 2);
  CHECK_THAT(unlinked.err, Catch::Contains("no model named 'LONELY' with 32 joints beside it") &&
                               Catch::Contains("give the model with --model FILE"));
  // Other names than .glb and .gltf, and the input itself.
  CHECK(test::run({"export", sample.set, "--gltf", sample.out("p.fbx")}).code == 2);
  CHECK(test::run({"export", sample.set, "--gltf", sample.set}).code == 2);
  for (const char* name : {"g.glb", "m.glb", "l.glb", "p.fbx"}) CHECK_FALSE(std::filesystem::exists(sample.out(name)));
}

TEST_CASE("a broken model is a file error naming the bone: a parent loop, a NaN in the bind pose", "[cli][gltf]") {
  Sample sample;
  auto bones = kh2::chain_skeleton(32);
  bones[3].parent = 5;  // a later bone: the note's rule, so no loop can form
  test::write_bytes(sample.out("loop.mdlx"), kh2::write_mdlx(bones));
  const auto loop = test::run_capturing({"export", sample.set, "--model", sample.out("loop.mdlx"), "--gltf", sample.out("a.glb")});
  CHECK(loop.code == 3);
  CHECK_THAT(loop.err, Catch::Contains("loop.mdlx") && Catch::Contains("parent"));
  bones = kh2::chain_skeleton(32);
  bones[7].translation[1] = std::numeric_limits<float>::quiet_NaN();
  test::write_bytes(sample.out("nan.mdlx"), kh2::write_mdlx(bones));
  const auto nan = test::run_capturing({"export", sample.set, "--model", sample.out("nan.mdlx"), "--gltf", sample.out("b.glb")});
  CHECK(nan.code == 3);
  CHECK_THAT(nan.err, Catch::Contains("nan.mdlx") && Catch::Contains("finite"));
  CHECK_FALSE(std::filesystem::exists(sample.out("a.glb")));
  CHECK_FALSE(std::filesystem::exists(sample.out("b.glb")));
}
