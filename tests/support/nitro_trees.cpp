#include "support/nitro_trees.h"

#include <array>

#include "formats/nitro/bma0_builder.h"
#include "formats/nitro/bmd0_builder.h"
#include "formats/nitro/bta0_builder.h"
#include "formats/nitro/btp0_builder.h"
#include "formats/nitro/bva0_builder.h"
#include "formats/nitro/bca0_builder.h"
#include "formats/nitro/bca0_writer.h"
#include "support/test_support.h"

namespace animdex::test {

std::vector<std::byte> nitro_joint_animation(const std::string& name, int node_count) {
  nsbca::NsbcaFile file;
  nsbca::JointAnimation animation;
  animation.name = name;
  animation.frame_count = 2;
  for (int node = 0; node < node_count; ++node) {
    nsbca::NodeAnimation joint;
    joint.translation = {nsbca::constant_axis(node, false), nsbca::constant_axis(0, false),
                         nsbca::constant_axis(0, false)};
    joint.tag = nsbca::tag_for(joint, node);
    animation.nodes.push_back(joint);
  }
  file.animations.push_back(animation);
  return nsbca::write_nsbca(file);
}

std::vector<std::byte> nitro_model_file(const std::string& name, const std::vector<std::string>& nodes) {
  std::vector<int> parents{-1};
  for (std::size_t n = 1; n < nodes.size(); ++n) parents.push_back(0);
  nitro::Bmd0File file;
  file.models.push_back(nitro::tree_model(name, nodes, parents));
  return nitro::write_bmd0(file);
}

std::vector<std::byte> nitro_visibility(const std::string& name, int node_count) {
  nitro::Bva0File file;
  file.animations.push_back(nitro::visibility_animation(name, {std::vector<bool>(node_count, true)}));
  return nitro::write_bva0(file);
}

void write_nitro_link_tree(const std::filesystem::path& root) {
  // Folder a: a model per name; `door` has fewer nodes than its model, `lamp` more (so its model
  // does not fit, and no other is guessed: a model of its name exists).
  write_bytes(root / "a/door.nsbmd", nitro_model_file("door", {"root", "hinge", "handle"}));
  write_bytes(root / "a/door.nsbca", nitro_joint_animation("door", 2));
  write_bytes(root / "a/lamp.nsbmd", nitro_model_file("lamp", {"base", "bulb"}));
  write_bytes(root / "a/lamp.nsbca", nitro_joint_animation("lamp", 3));
  write_bytes(root / "a/lamp.nsbva", nitro_visibility("lamp", 2));
  // A BVA0 with fewer nodes than its model: linked by name, not exact (the model's third node
  // keeps its default visibility).
  write_bytes(root / "a/door.nsbva", nitro_visibility("door", 2));
  // `spin` has no model of its name: the one model with 2 nodes is `lamp`.
  write_bytes(root / "a/spin.nsbca", nitro_joint_animation("spin", 2));
  // Folder b: two models with 2 nodes, so a nameless match is never guessed; folder a's are not seen.
  write_bytes(root / "b/one.nsbmd", nitro_model_file("one", {"x", "y"}));
  write_bytes(root / "b/two.nsbmd", nitro_model_file("two", {"p", "q"}));
  write_bytes(root / "b/wave.nsbca", nitro_joint_animation("wave", 2));
  write_bytes(root / "b/door.nsbca", nitro_joint_animation("door", 2));
}

void write_nitro_kinds_tree(const std::filesystem::path& root) {
  using namespace nitro;
  std::array<SrtValue, 5> srt = {srt_constant(4096, true, 4), srt_constant(4096, true, 4),
                                 srt_rotation_constant(0, 4096, 4), srt_array({0, 1024, 2048, 3072}, true, 1, 4),
                                 srt_constant(-2048, true, 4)};
  Bta0File water;
  water.animations = {{"water", 4, 0, 0, {{"lambert5", srt}}}};
  write_bytes(root / "water.nsbta", write_bta0(water));

  Btp0File blink;
  TexPatternAnimation animation{"blink", 6, {"eye_open", "eye_half", "eye_shut"}, {"eye_pl"}, {}};
  animation.materials = {pattern_material("eye", 6, {{0, 0, 0}, {2, 1, kKeepPalette}, {3, 2, 0}, {5, 0, 0}}),
                         pattern_material("mouth", 6, {{0, 1, kKeepPalette}})};
  blink.animations = {animation};
  write_bytes(root / "blink.nsbtp", write_btp0(blink));

  std::array<ColorValue, 5> colours = {color_constant(rgb555(31, 0, 0), 3), color_constant(0x7FFF, 3),
                                       color_constant(0, 3), color_constant(0, 3), color_array({31, 16, 0}, 1, 3)};
  Bma0File fade;
  fade.animations = {{"fade", 3, 0, {{"glass", colours}}}};
  write_bytes(root / "fade.nsbma", write_bma0(fade));
}

}  // namespace animdex::test
