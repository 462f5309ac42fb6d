// NSBCA files built with the project's writer: sample counts and frames for steps 1/2/4, the
// runtime evaluation rules, rotation tables, several animations, every tag combination, fx16 and
// fx32 arrays, and the mapping to the common model.
#include <catch2/catch.hpp>
#include <cmath>

#include "support/format_rows.h"
#include "formats/nitro/bca0_builder.h"
#include "formats/nitro/bca0_decode.h"
#include "formats/nitro/bca0_model.h"
#include "formats/nitro/bca0_parser.h"
#include "formats/nitro/nitro_dictionary_tree.h"
#include "formats/nitro/bca0_writer.h"
#include "formats/registry.h"

using namespace animdex;
using namespace animdex::nsbca;

namespace {

NsbcaFile must(Result<NsbcaFile> result) {
  if (!result.ok()) FAIL(result.error().message());
  return std::move(result).value();
}

std::vector<double> ramp(std::size_t count, double start, double step) {
  std::vector<double> values;
  for (std::size_t i = 0; i < count; ++i) values.push_back(start + step * static_cast<double>(i));
  return values;
}

NodeAnimation node_of(std::array<AxisChannel, 3> t, RotationChannel r, std::array<AxisChannel, 3> s, int id) {
  NodeAnimation node;
  node.translation = std::move(t);
  node.rotation = std::move(r);
  node.scale = std::move(s);
  node.tag = tag_for(node, id);
  return node;
}

// Every combination of T (5 kinds), R (4) and S (5) sources, steps and encodings spread over them.
JointAnimation every_combination(const std::string& name, int frame_count) {
  JointAnimation animation;
  animation.name = name;
  animation.frame_count = static_cast<std::uint16_t>(frame_count);
  animation.rot5.push_back(encode_rot5(rotation_about_z(0)));
  animation.rot5.push_back(encode_rot5(rotation_about_z(90)));
  animation.rot3.push_back(encode_rot3(8, false, 0, 1, true, false));  // pivot z: [0 1; -1 0], +90 about z
  int id = 0, variant = 0;
  const auto axes = [&](int kind, bool is_scale) -> std::array<AxisChannel, 3> {
    const int step = 1 << (variant % 3);
    const bool fx16 = variant % 2 == 0;
    const std::size_t count = sample_count(frame_count, step);
    const double base = is_scale ? 1.0 : 2.0;
    ++variant;
    switch (kind) {
      case 0: return {identity_axis(), identity_axis(), identity_axis()};
      case 1: return {base_axis(), base_axis(), base_axis()};
      case 2: return {constant_axis(base, is_scale), constant_axis(base + 0.5, is_scale), constant_axis(base + 1, is_scale)};
      case 3:
        return {animated_axis(ramp(count, base, 0.25), frame_count, step, fx16, is_scale),
                animated_axis(ramp(count, base, -0.125), frame_count, step, !fx16, is_scale),
                animated_axis(ramp(count, base, 0.5), frame_count, step, fx16, is_scale)};
      default:
        return {constant_axis(base, is_scale), animated_axis(ramp(count, base, 0.25), frame_count, step, fx16, is_scale),
                constant_axis(base - 0.5, is_scale)};
    }
  };
  const auto rotation = [&](int kind) -> RotationChannel {
    const int step = 1 << (variant % 3);
    switch (kind) {
      case 0: return identity_rotation();
      case 1: return base_rotation();
      case 2: return constant_rotation(0x8000);
      default: {
        std::vector<std::uint16_t> indices;
        for (std::size_t i = 0; i < sample_count(frame_count, step); ++i) indices.push_back(i % 2 ? 1 : 0);
        return animated_rotation(indices, frame_count, step);
      }
    }
  };
  for (int t = 0; t < 5; ++t)
    for (int r = 0; r < 4; ++r)
      for (int s = 0; s < 5; ++s) animation.nodes.push_back(node_of(axes(t, false), rotation(r), axes(s, true), id++));
  return animation;
}

bool same_channels(const NodeAnimation& a, const NodeAnimation& b) {
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const auto& ta = a.translation[axis];
    const auto& tb = b.translation[axis];
    const auto& sa = a.scale[axis];
    const auto& sb = b.scale[axis];
    if (ta.source != tb.source || ta.samples != tb.samples || ta.info.word != tb.info.word) return false;
    if (ta.source == Source::constant && ta.constant != tb.constant) return false;
    if (sa.source != sb.source || sa.samples != sb.samples || sa.inverses != sb.inverses) return false;
  }
  return a.tag == b.tag && a.rotation.source == b.rotation.source && a.rotation.indices == b.rotation.indices;
}

}  // namespace

TEST_CASE("sample counts and frames for steps 1, 2 and 4", "[nsbca]") {
  CHECK(sample_count(10, 1) == 10);
  CHECK(sample_count(10, 2) == 6);
  CHECK(sample_count(10, 4) == 4);
  CHECK(sample_count(9, 4) == 3);
  CHECK(sample_count(1, 4) == 1);
  CHECK(sample_frames(10, TrackInfo::make(2, false, 8)) == std::vector<int>{0, 2, 4, 6, 8, 9});
  CHECK(sample_frames(10, TrackInfo::make(4, false, 8)) == std::vector<int>{0, 4, 8, 9});
  CHECK(sample_frames(12, TrackInfo::make(4, false, 8)) == std::vector<int>{0, 4, 8, 9, 10, 11});
  CHECK(sample_frames(9, TrackInfo::make(4, false, 8)) == std::vector<int>{0, 4, 8});
}

TEST_CASE("evaluation follows the runtime indexing for steps 2 and 4", "[nsbca]") {
  // Step 2, 10 frames: samples at 0, 2, 4, 6, 8 and 9 (L = 8).
  const auto step2 = animated_axis({0, 2, 4, 6, 8, 100}, 10, 2, false, false);
  CHECK(evaluate_axis(step2, 10, 4, false) == 4);
  CHECK(evaluate_axis(step2, 10, 5, false) == 5);    // odd frame <= L: mean of its neighbours
  CHECK(evaluate_axis(step2, 10, 9, false) == 100);  // odd frame > L: a[L/2 + 1]
  // Step 4, 12 frames: samples at 0, 4, 8 and 9, 10, 11 (L = 8).
  const auto step4 = animated_axis({0, 4, 8, 90, 100, 110}, 12, 4, true, false);
  CHECK(evaluate_axis(step4, 12, 1, false) == 1);    // (3a + b) / 4
  CHECK(evaluate_axis(step4, 12, 2, false) == 2);    // mean
  CHECK(evaluate_axis(step4, 12, 7, false) == 7);    // (a + 3b) / 4
  CHECK(evaluate_axis(step4, 12, 8, false) == 8);
  CHECK(evaluate_axis(step4, 12, 9, false) == 90);   // frame > L: a[L/4 + f%4]
  CHECK(evaluate_axis(step4, 12, 11, false) == 110);
  CHECK(evaluate_axis(step4, 12, 50, false) == 110);  // clamped to the last frame
  CHECK(evaluate_axis(identity_axis(), 12, 3, true) == 1);
  CHECK(evaluate_axis(constant_axis(-2.5, false), 12, 3, false) == -2.5);
}

TEST_CASE("rotation tables: Rot3 and Rot5 decode, blends stay orthonormal", "[nsbca]") {
  const Matrix3 quarter = rotation_about_z(90);
  const Matrix3 rot5 = decode_rot5(encode_rot5(quarter));
  for (std::size_t i = 0; i < 9; ++i) CHECK(rot5[i] == Approx(quarter[i]).margin(1e-3));
  const Matrix3 rot3 = decode_rot3(encode_rot3(8, false, 0, 1, true, false));
  CHECK(rot3 == Matrix3{0, 1, 0, -1, 0, 0, 0, 0, 1});
  const Matrix3 flipped = decode_rot3(encode_rot3(0, true, 1, 0, false, true));  // pivot x = -1; [1 0; 0 -1]
  CHECK(flipped == Matrix3{-1, 0, 0, 0, 1, 0, 0, 0, -1});
  const Rot5Entry negative = encode_rot5(rotation_about_z(-30));
  const Matrix3 back = decode_rot5(negative);
  CHECK(back[1] == Approx(-0.5).margin(1e-3));
  CHECK(back[3] == Approx(0.5).margin(1e-3));

  JointAnimation animation;
  animation.frame_count = 3;
  animation.rot5 = {encode_rot5(rotation_about_z(0)), encode_rot5(rotation_about_z(90))};
  const auto blended = evaluate_rotation(animation, animated_rotation({0, 1}, 3, 2), 1);
  CHECK(blended[0] == Approx(std::sqrt(0.5)).margin(1e-3));  // halfway: 45 degrees, renormalised
  CHECK(blended[1] == Approx(std::sqrt(0.5)).margin(1e-3));
  CHECK(blended[8] == Approx(1.0).margin(1e-3));
}

TEST_CASE("several animations, every tag combination, steps 2 and 4, fx16 and fx32 round-trip", "[nsbca][writer]") {
  NsbcaFile file;
  file.animations = {every_combination("walk", 10), every_combination("run_fast", 12), every_combination("a", 1)};
  const auto bytes = write_nsbca(file);
  CHECK(detect_format(bytes, bytes.size())->id == "nsbca");
  const NsbcaFile parsed = must(parse_nsbca(bytes));
  CHECK(parsed.warnings.empty());
  REQUIRE(parsed.animations.size() == 3);
  for (std::size_t a = 0; a < 3; ++a) {
    INFO(file.animations[a].name);
    CHECK(parsed.animations[a].name == file.animations[a].name);
    CHECK(parsed.animations[a].frame_count == file.animations[a].frame_count);
    REQUIRE(parsed.animations[a].nodes.size() == 100);
    for (std::size_t n = 0; n < 100; ++n) CHECK(same_channels(parsed.animations[a].nodes[n], file.animations[a].nodes[n]));
  }
  CHECK(write_nsbca(parsed) == bytes);
}

TEST_CASE("a written BCA0's dictionary tree finds every name among many", "[nsbca][writer]") {
  // The writer lays the tree out as the other Nitro writers do (nitro_dictionary_tree.h): read it
  // back from the file (JNT0 at 0x14, its dictionary at 0x1C, the tree 8 bytes in) and search it.
  NsbcaFile file;
  std::vector<std::string> names;
  for (int i = 0; i < 200; ++i) {
    JointAnimation animation;
    animation.name = "anim_" + std::to_string(i * 7919 % 1000);
    animation.frame_count = 1;
    names.push_back(animation.name);
    file.animations.push_back(animation);
  }
  const auto bytes = write_nsbca(file);
  std::vector<nitro::DictionaryTreeNode> tree(names.size() + 1);
  for (std::size_t n = 0; n < tree.size(); ++n) {
    const std::size_t at = 0x1C + 8 + 4 * n;
    REQUIRE(at + 4 <= bytes.size());
    tree[n] = {std::to_integer<std::uint8_t>(bytes[at]), std::to_integer<std::uint8_t>(bytes[at + 1]),
               std::to_integer<std::uint8_t>(bytes[at + 2]), std::to_integer<std::uint8_t>(bytes[at + 3])};
  }
  for (std::size_t e = 0; e < names.size(); ++e)
    CHECK(nitro::dictionary_tree_search(tree, names[e]) == static_cast<int>(e));
}

TEST_CASE("the common model: tracks for const and animated groups, node states for all", "[nsbca][model]") {
  NsbcaFile file;
  JointAnimation animation;
  animation.name = "wave";
  animation.frame_count = 10;
  animation.rot5 = {encode_rot5(rotation_about_z(0)), encode_rot5(rotation_about_z(90))};
  animation.nodes.push_back(node_of({identity_axis(), identity_axis(), identity_axis()}, identity_rotation(),
                                    {identity_axis(), identity_axis(), identity_axis()}, 0));
  animation.nodes.push_back(node_of({constant_axis(1, false), animated_axis({0, 1, 2, 3, 4, 5}, 10, 2, true, false),
                                     constant_axis(3, false)},
                                    animated_rotation({0, 1, 0, 1, 0, 1}, 10, 2), {base_axis(), base_axis(), base_axis()},
                                    1));
  file.animations.push_back(animation);
  const auto model = to_model(must(parse_nsbca(write_nsbca(file))));
  REQUIRE(model.animations.size() == 1);
  const auto& result = model.animations[0];
  CHECK(result.name == "wave");
  CHECK(result.frame_count == 10);
  const auto nodes = test::rows_of(model, "node_states");
  REQUIRE(nodes.size() == 2);
  CHECK(test::get<std::string>(*nodes[0], "t_state") == "identity");
  CHECK(test::get<std::int64_t>(*nodes[0], "tag") == 1);  // IDENTITY, node 0
  CHECK(test::get<std::string>(*nodes[1], "t_state") == "x=const y=animated z=const");
  CHECK(test::get<std::string>(*nodes[1], "r_state") == "animated");
  CHECK(test::get<std::string>(*nodes[1], "s_state") == "base");
  REQUIRE(result.tracks.size() == 2);  // node 1: T and R; identity and base groups have no track
  const auto& t = result.tracks[0];
  CHECK(t.bone_id == 1);
  CHECK(t.channels == "T");
  CHECK(t.value_encoding == "fx16");
  REQUIRE(t.keys.size() == 6);
  CHECK(t.keys[5].frame == 9);
  CHECK(t.keys[5].y == 5.0);
  CHECK(t.keys[5].x == 1.0);
  const auto& r = result.tracks[1];
  CHECK(r.channels == "R");
  REQUIRE(r.keys.size() == 6);
  CHECK(*r.keys[1].z == Approx(std::sqrt(0.5)).margin(1e-3));  // frame 2: 90 degrees about z
  CHECK(*r.keys[1].w == Approx(std::sqrt(0.5)).margin(1e-3));
  CHECK(*r.keys[0].w == Approx(1.0).margin(1e-3));
}
