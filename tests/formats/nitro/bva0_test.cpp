// BVA0 visibility: built files read back bit for bit (several animations per file), the model
// keeps a key per change, the pose reads the bit of (frame, node); one corrupt input per rule.
#include <catch2/catch.hpp>

#include "formats/nitro/bva0_builder.h"
#include "formats/nitro/bva0_format.h"
#include "model/validate.h"
#include "support/corrupt_input.h"

using namespace animdex;
using namespace animdex::nitro;

namespace {

// Three nodes over five frames: node 0 always shown, node 1 hidden on frames 2-3, node 2 shown
// from frame 4. 15 bits: one word.
const std::vector<std::vector<bool>> kBlink = {
    {true, true, false}, {true, true, false}, {true, false, false}, {true, false, false}, {true, true, true}};

Bva0File two_animations() {
  Bva0File file;
  file.animations.push_back(visibility_animation("blink", kBlink));
  // 40 frames x 1 node: two words, shown on odd frames.
  std::vector<std::vector<bool>> flicker;
  for (int frame = 0; frame < 40; ++frame) flicker.push_back({frame % 2 == 1});
  file.animations.push_back(visibility_animation("flicker", flicker));
  return file;
}

Pose pose_at(const Bytes& bytes, const std::string& animation, double frame) {
  PoseRequest request;
  request.animation = animation;
  request.frame = frame;
  const auto answer = bva0_pose(bytes, request);
  REQUIRE(std::holds_alternative<Pose>(answer));
  return std::get<Pose>(answer);
}

}  // namespace

TEST_CASE("a built BVA0 reads back bit for bit, two animations in one file", "[nitro][nsbva]") {
  const auto bytes = write_bva0(two_animations());
  const auto parsed = parse_bva0(bytes);
  REQUIRE(parsed.ok());
  CHECK(parsed.value().warnings.empty());
  REQUIRE(parsed.value().animations.size() == 2);
  const auto& blink = parsed.value().animations[0];
  CHECK(blink.frame_count == 5);
  CHECK(blink.node_count == 3);
  CHECK(blink.words == std::vector<std::uint32_t>{0x725B});  // bits 0 1 3 4 6 9 12 13 14 (frame x 3 + node)
  CHECK(parsed.value().animations[1].words.size() == 2);
  CHECK(write_bva0(parsed.value()) == bytes);

  SECTION("the model keeps frame 0 and every change per node") {
    const auto model = bva0_to_model(parsed.value());
    CHECK_FALSE(model::validate(model));
    const auto& tracks = model.animations[0].tracks;
    REQUIRE(tracks.size() == 3);
    CHECK(tracks[0].channels == "visible");
    CHECK(std::vector<double>(tracks[0].keys.time().begin(), tracks[0].keys.time().end()) == std::vector<double>{0});
    CHECK(std::vector<double>(tracks[1].keys.time().begin(), tracks[1].keys.time().end()) == std::vector<double>{0, 2, 4});
    CHECK(std::vector<double>(tracks[1].keys.x().begin(), tracks[1].keys.x().end()) == std::vector<double>{1, 0, 1});
    CHECK(std::vector<double>(tracks[2].keys.x().begin(), tracks[2].keys.x().end()) == std::vector<double>{0, 1});
    CHECK(model.animations[1].tracks[0].keys.size() == 40);
    CHECK(model.animations[0].end_time == 4);
  }
  SECTION("the pose reads each node's bit at the frame") {
    const Pose frame2 = pose_at(bytes, "blink", 2);
    REQUIRE(frame2.rows.size() == 3);
    CHECK(std::get<std::int64_t>(frame2.rows[0][1]) == 1);
    CHECK(std::get<std::int64_t>(frame2.rows[1][1]) == 0);
    CHECK(std::get<std::int64_t>(frame2.rows[2][1]) == 0);
    CHECK(std::get<std::int64_t>(pose_at(bytes, "blink", 4).rows[2][1]) == 1);
    CHECK(std::get<std::int64_t>(pose_at(bytes, "flicker", 33).rows[0][1]) == 1);
    CHECK(std::get<std::int64_t>(pose_at(bytes, "flicker", 34).rows[0][1]) == 0);
  }
  SECTION("frames outside the animation and fractions are usage errors") {
    PoseRequest request;
    request.frame = 5;
    auto answer = bva0_pose(bytes, request);  // two animations and none chosen: no silent first
    REQUIRE(std::holds_alternative<CapabilityError>(answer));
    CHECK(std::get<CapabilityError>(answer).message ==
          "the file has 2 animations: choose one with --anim NAME (blink, flicker)");
    request.animation = "blink";
    answer = bva0_pose(bytes, request);
    REQUIRE(std::holds_alternative<CapabilityError>(answer));
    CHECK(std::get<CapabilityError>(answer).message == "frame 5 is outside 0..4 of 'blink'");
    request.frame = 1.5;
    answer = bva0_pose(bytes, request);
    REQUIRE(std::holds_alternative<CapabilityError>(answer));
    CHECK(std::get<CapabilityError>(answer).kind == CapabilityError::Kind::usage);
  }
}

TEST_CASE("corrupt BVA0 files fail at the field with what was expected", "[nitro][nsbva][corrupt]") {
  Bva0File file;
  file.animations.push_back(visibility_animation("blink", kBlink));
  const auto good = write_bva0(file);
  REQUIRE(parse_bva0(good).ok());
  // Header 0x10 + 4, VIS0 at 0x14, its dictionary (one entry, 40 bytes) at 0x1C, the animation at 0x44.
  const std::size_t block = 0x14, animation = 0x44;
  REQUIRE(test::get(good, animation, 4, BE) == 0x56004156);  // "V\0AV"
  auto patched = [&](std::size_t at, std::uint64_t value, int size) {
    auto bytes = good;
    test::put(bytes, at, value, size, LE);
    return parse_bva0(bytes);
  };
  SECTION("block magic") { test::expect_parse_error(patched(block, 0x304E544A, 4), "block magic VIS0", block); }
  SECTION("animation header") {
    test::expect_parse_error(patched(animation, 0x43410041, 4), "animation 'blink' header 56 00 41 56", animation);
  }
  SECTION("no frames") { test::expect_parse_error(patched(animation + 4, 0, 2), "frame count >= 1", animation + 4); }
  SECTION("no nodes") { test::expect_parse_error(patched(animation + 6, 0, 2), "node count >= 1", animation + 6); }
  SECTION("bits past the block") {
    test::expect_parse_error(patched(animation + 6, 200, 2), "visibility bits of 5 frames x 200 nodes", animation + 6);
  }
  SECTION("dictionary entry outside the block") {
    const std::size_t entry = block + 8 + 8 + 8 + 4;  // header, tree (2 nodes), entry header
    test::expect_parse_error(patched(entry, 0x1000, 4), "animation 'blink' header", entry);
  }
  SECTION("a size field that disagrees is a warning") {
    const auto parsed = patched(animation + 8, 99, 2);
    REQUIRE(parsed.ok());
    CHECK(parsed.value().warnings == std::vector<std::string>{"blink: size field 99 (12 + 4 x 1 words expected)"});
  }
}
