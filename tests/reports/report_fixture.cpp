#include "reports/report_fixture.h"

#include <algorithm>

#include "formats/gnt_mot/gnt_mot_builder.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "support/gnt_builders.h"
#include "support/test_support.h"

namespace animdex::test {

namespace {

using namespace gnt_mot;

// A body whose values are personal to the character and the animation (no accidental sharing).
std::vector<BoneSpec> body(float base, std::vector<std::int64_t> frames) {
  std::vector<BoneSpec> bones;
  for (std::uint16_t bone = 0; bone < 4; ++bone) bones.push_back(rotation_track(bone, frames, base + 0.125F * bone));
  return bones;
}

GntAnimation universal_throw() { return gnt_animation(0x140, 40, {rotation_track(0, {0, 20, 40}, 9.5F), rotation_track(118, {0, 40}, 2.0F)}); }
BoneSpec hand_sign() { return rotation_track(20, {0, 5, 10, 15}, 7.0F); }

GntAnimation walk(float offset) {
  std::vector<BoneSpec> bones;
  for (std::uint16_t bone = 0; bone < 3; ++bone)
    bones.push_back(rotation_track(bone, {0, 12, 24}, 3.0F + offset + static_cast<float>(bone), CoordinateEncoding::f32));
  return gnt_animation(0x0001, 24, bones);
}

void write_character(const std::filesystem::path& root, const std::string& code, std::vector<GntAnimation> list) {
  std::sort(list.begin(), list.end(), [](const GntAnimation& a, const GntAnimation& b) { return a.animation_id < b.animation_id; });
  MotFile file;
  file.slot_count = 0x200;
  file.animations = std::move(list);
  write_bytes(root / "files/chr" / code / "0000.mot", write_mot(file));
}

}  // namespace

void write_report_dump(const std::filesystem::path& root, int version) {
  const bool v2 = version == 2;
  // sas: Idle, Throw, 5B with the hand sign.
  auto sas_5b_bones = body(1.0F, {0, 8, 16});
  if (v2) {
    sas_5b_bones[1] = rotation_track(1, {0, 8, 16}, 1.125F + 1.5F);
    sas_5b_bones[2] = rotation_track(2, {0, 8, 16, 20}, 1.25F);
    // A change of 3.234375: seven digits, which a default-precision print would round to 3.23438.
    sas_5b_bones[3] = rotation_track(3, {0, 8, 16}, 1.375F + 3.234375F, CoordinateEncoding::f32);
  }
  sas_5b_bones.push_back(hand_sign());
  write_character(root, "sas", {gnt_animation(0x0000, 30, body(0.5F, {0, 15, 30})), universal_throw(),
                                gnt_animation(0x0090, 20, sas_5b_bones)});
  // hak: Idle, Throw, Walk (near kak's); v2 adds Jump Land.
  std::vector<GntAnimation> hak = {gnt_animation(0x0000, 30, body(10.5F, {0, 15, 30})), universal_throw(), walk(0.0F)};
  if (v2) hak.push_back(gnt_animation(0x0031, 12, body(20.5F, {0, 6, 12})));
  write_character(root, "hak", hak);
  // kak: Idle, Throw, Walk (0.0005 from hak's), 5A with the hand sign; v2 drops 5A.
  std::vector<GntAnimation> kak = {gnt_animation(0x0000, 30, body(30.5F, {0, 15, 30})), universal_throw(), walk(0.0005F)};
  auto kak_5a_bones = body(40.5F, {0, 9, 18});
  kak_5a_bones.push_back(hand_sign());
  if (!v2) kak.push_back(gnt_animation(0x00A0, 18, kak_5a_bones));
  write_character(root, "kak", kak);
  if (!v2) write_character(root, "loc", {gnt_animation(0x0000, 30, body(50.5F, {0, 15, 30}))});
  if (v2) write_character(root, "nar", {gnt_animation(0x0000, 30, body(60.5F, {0, 15, 30}))});
}

}  // namespace animdex::test
