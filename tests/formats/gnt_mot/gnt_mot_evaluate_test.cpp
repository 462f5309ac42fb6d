// GNT evaluation (gnt-mot.md "Semantics"): linear keys in seconds, the ends held, time-only tracks
// leaving the bind pose; and `pose` through the format's capability on a written file.
#include <catch2/catch.hpp>
#include <cmath>

#include "formats/gnt_mot/gnt_mot_builder.h"
#include "formats/gnt_mot/gnt_mot_capabilities.h"
#include "formats/gnt_mot/gnt_mot_evaluate.h"
#include "formats/gnt_mot/gnt_mot_writer.h"

using namespace animdex;
using namespace animdex::gnt_mot;

namespace {

// Bone 3 rotating (keys at frames 0, 30, 60), bone 5 translating (one key at frame 12), bone 7
// with key times only.
GntAnimation walk() {
  GntAnimation animation;
  animation.animation_id = 0x14;
  animation.end_time = frame_to_seconds(60);
  BoneSpec rotate{3, kTrackRotate | kTrackEnabled, CoordinateEncoding::f32, {0, 30, 60},
                  {{1, 0, 0, 10}, {0, 1, 0, 30}, {0, 0, 1, -20}}};
  BoneSpec translate{5, kTrackTranslate | kTrackEnabled, CoordinateEncoding::bf16, {12}, {{3.125F, 0, -1, 0}}};
  BoneSpec times_only{7, kTrackRotate | kTrackEnabled, CoordinateEncoding::none, {0, 60}, {}};
  for (const auto& spec : {rotate, translate, times_only}) animation.bones.push_back(make_bone(spec));
  return animation;
}

}  // namespace

TEST_CASE("GNT keys: linear between keys, held before the first and after the last", "[gnt_mot][evaluate]") {
  const auto animation = walk();
  const auto& track = animation.bones[0];
  const auto twist = component_values(track, 3);
  const double t0 = track.key_times[0], t1 = track.key_times[1];
  CHECK(interpolate(track.key_times, twist, (t0 + t1) / 2) == Approx(20));  // the midpoint of 10 and 30
  CHECK(interpolate(track.key_times, twist, t1) == 30.0);                   // a key's own time: its value
  CHECK(interpolate(track.key_times, twist, -1.0) == 10.0);                 // before the first key
  CHECK(interpolate(track.key_times, twist, 99.0) == -20.0);                // after the last key
  const std::vector<float> tied = {0.0F, 0.5F, 0.5F, 1.0F};
  const std::vector<double> values = {0, 1, 5, 7};
  CHECK(interpolate(tied, values, 0.5) == 5.0);  // of two keys at one time, the later from then on
  CHECK(interpolate(tied, values, 0.25) == Approx(0.5));
}

TEST_CASE("GNT pose: each bone's T, R and S, time-only tracks keep the bind pose", "[gnt_mot][evaluate]") {
  const auto bones = evaluate(walk(), 0.25);  // frame 15: halfway from key 0 to key 1
  REQUIRE(bones.size() == 3);
  CHECK(bones[0].bone_id == 3);
  REQUIRE(bones[0].rotate);
  CHECK((*bones[0].rotate)[0] == Approx(0.5));
  CHECK((*bones[0].rotate)[1] == Approx(0.5));
  CHECK((*bones[0].rotate)[3] == Approx(20));
  CHECK_FALSE(bones[0].translate);
  REQUIRE(bones[1].translate);
  CHECK((*bones[1].translate)[0] == 3.125);  // one key: its value at every time
  CHECK(bones[2].bone_id == 7);
  CHECK_FALSE(bones[2].rotate);  // key times without values
}

TEST_CASE("GNT pose capability: the slot by ID and a usage error naming the IDs", "[gnt_mot][evaluate]") {
  MotFile mot;
  mot.slot_count = 0x20;
  mot.animations.push_back(walk());
  const auto bytes = write_mot(mot);
  PoseRequest request;
  request.slot = "0x14";
  request.frame = 30;  // 1/60 s frames by default
  const auto pose = pose_bones(bytes, request);
  REQUIRE(std::holds_alternative<Pose>(pose));
  const auto& rows = std::get<Pose>(pose).rows;
  REQUIRE(rows.size() == 3);
  CHECK(std::get<std::vector<double>>(rows[0][3])[3] == 30.0);
  request.slot = "5";
  const auto missing = pose_bones(bytes, request);
  REQUIRE(std::holds_alternative<CapabilityError>(missing));
  CHECK(std::get<CapabilityError>(missing).message.find("the file has 0x0014") != std::string::npos);
  CurveRequest curves_request;
  curves_request.samples_per_second = 60;
  const auto curves = curves_bones(bytes, curves_request);
  REQUIRE(std::holds_alternative<std::vector<AnimationCurves>>(curves));
  const auto& animation = std::get<std::vector<AnimationCurves>>(curves).front();
  CHECK(animation.channels.size() == 4 + 3);  // R x y z w of bone 3, T x y z of bone 5
  CHECK(animation.channels.front().sample_times.size() == 61);
  CHECK(animation.channels.front().channel == "R.x");
}
