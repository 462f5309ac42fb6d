// The glTF the writer makes, read back with tinygltf's own loader: nodes and skin, inverse bind
// matrices, times from 0 with min and max, sign-continuous rotations, channels at rest left out,
// and a zero bind scale resting at 1.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <numbers>

#include <tiny_gltf.h>

#include "rig/gltf_writer.h"

using namespace animdex;

namespace {

model::Skeleton three_joints() {
  model::Skeleton skeleton{"arm", {}};
  for (int j = 0; j < 3; ++j) {
    model::Joint joint;
    joint.name = j == 1 ? "" : "joint" + std::to_string(j);
    joint.parent = j - 1;
    joint.bind.translation = {j == 0 ? 0.0 : 10.0, 0, 0};
    skeleton.joints.push_back(joint);
  }
  skeleton.joints[2].bind.scale = {0, 0, 0};  // hidden, as a DS model hides a part
  return skeleton;
}

// Joint 0 turns about z from 170 to -170 degrees (across the sign flip); joints 1 and 2 rest.
model::SampledAnimation turning(const model::Skeleton& skeleton) {
  auto animation = model::sampled_animation("turn", 30, -0.5);
  for (const double degrees : {170.0, 180.0, -170.0}) {
    auto pose = model::bind_pose(skeleton);
    pose[0].rotation = axis_rotation(2, degrees * std::numbers::pi / 180);
    animation.frames.push_back(pose);
  }
  return animation;
}

tinygltf::Model load(const std::string& bytes) {
  tinygltf::TinyGLTF loader;
  tinygltf::Model model;
  std::string error, warning;
  const bool ok = loader.LoadBinaryFromMemory(&model, &error, &warning,
                                              reinterpret_cast<const unsigned char*>(bytes.data()),
                                              static_cast<unsigned int>(bytes.size()));
  INFO(error << warning);
  REQUIRE(ok);
  return model;
}

std::vector<float> floats(const tinygltf::Model& model, int accessor_index) {
  const auto& accessor = model.accessors[static_cast<std::size_t>(accessor_index)];
  const auto& view = model.bufferViews[static_cast<std::size_t>(accessor.bufferView)];
  const auto& data = model.buffers[static_cast<std::size_t>(view.buffer)].data;
  const auto width = static_cast<std::size_t>(tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(accessor.type)));
  std::vector<float> values(accessor.count * width);
  std::memcpy(values.data(), data.data() + view.byteOffset + accessor.byteOffset, values.size() * sizeof(float));
  return values;
}

}  // namespace

TEST_CASE("the skeleton becomes named nodes under one root with a skin and inverse bind matrices", "[rig][gltf]") {
  const auto skeleton = three_joints();
  rig::GltfWriter writer(skeleton, "animdex test");
  writer.add(turning(skeleton));
  const auto model = load(writer.bytes(true));
  REQUIRE(model.nodes.size() == 3);
  CHECK(model.nodes[0].name == "joint0");
  CHECK(model.nodes[1].name == "joint 1");  // a joint without a name gets its position
  CHECK(model.nodes[0].children == std::vector<int>{1});
  CHECK(model.scenes.at(0).nodes == std::vector<int>{0});
  CHECK(model.nodes[2].scale == std::vector<double>{1, 1, 1});  // a zero scale rests at 1
  REQUIRE(model.skins.size() == 1);
  CHECK(model.skins[0].joints == std::vector<int>{0, 1, 2});
  CHECK(model.skins[0].skeleton == 0);
  const auto inverse_binds = floats(model, model.skins[0].inverseBindMatrices);
  REQUIRE(inverse_binds.size() == 48);
  CHECK(inverse_binds[16 + 12] == -10);  // joint 1 sits at x = 10; joint 2 at x = 20
  CHECK(inverse_binds[32 + 12] == -20);
  CHECK(model.asset.generator == "animdex test");
}

TEST_CASE("an animation is sampled from 0 s, rotations keep one sign, and channels at rest are left out",
          "[rig][gltf]") {
  const auto skeleton = three_joints();
  rig::GltfWriter writer(skeleton, "animdex test");
  writer.add(turning(skeleton));
  const auto model = load(writer.bytes(true));
  REQUIRE(model.animations.size() == 1);
  const auto& animation = model.animations[0];
  CHECK(animation.name == "turn");
  // Joint 0's rotation changes; joint 2's scale (0 against a rest of 1) is one key; the rest is at rest.
  REQUIRE(animation.channels.size() == 2);
  CHECK(animation.channels[0].target_node == 0);
  CHECK(animation.channels[0].target_path == "rotation");
  CHECK(animation.channels[1].target_node == 2);
  CHECK(animation.channels[1].target_path == "scale");
  const auto& rotation = animation.samplers[static_cast<std::size_t>(animation.channels[0].sampler)];
  CHECK(rotation.interpolation == "LINEAR");
  CHECK(floats(model, rotation.input) == std::vector<float>{0, 1.0F / 30, 2.0F / 30});
  const auto& input = model.accessors[static_cast<std::size_t>(rotation.input)];
  CHECK(input.minValues == std::vector<double>{0});
  CHECK(input.maxValues == std::vector<double>{static_cast<float>(2.0 / 30)});
  const auto q = floats(model, rotation.output);
  for (std::size_t k = 1; k < 3; ++k) {
    double dot = 0;
    for (std::size_t c = 0; c < 4; ++c) dot += q[k * 4 + c] * q[(k - 1) * 4 + c];
    CHECK(dot > 0);  // slerp between neighbours takes the 10-degree way, not the 350-degree one
  }
  const auto& scale = animation.samplers[static_cast<std::size_t>(animation.channels[1].sampler)];
  CHECK(floats(model, scale.input) == std::vector<float>{0});
  CHECK(floats(model, scale.output) == std::vector<float>{0, 0, 0});
}

TEST_CASE(".gltf embeds the buffer as a data URI and the animations share one buffer", "[rig][gltf]") {
  const auto skeleton = three_joints();
  rig::GltfWriter writer(skeleton, "animdex test");
  writer.add(turning(skeleton));
  writer.add(turning(skeleton));
  CHECK(writer.animation_count() == 2);
  const auto text = writer.bytes(false);
  CHECK_THAT(text, Catch::Contains("\"uri\":\"data:application/octet-stream;base64,"));
  CHECK_THAT(text, Catch::Contains("\"version\":\"2.0\""));
}
