#pragma once
// DS (Nitro) files and trees made with the project's writers, shared by the Nitro index tests and
// the SQL fixtures (tests/sql) so that a tree is written in one place.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace animdex::test {

// A BCA0 animation of `node_count` identity nodes (tag i names node i).
std::vector<std::byte> nitro_joint_animation(const std::string& name, int node_count);
// A BMD0 file of one model whose node 0 is the root and every other node its child.
std::vector<std::byte> nitro_model_file(const std::string& name, const std::vector<std::string>& nodes);
// A BVA0 file of one animation with every node visible.
std::vector<std::byte> nitro_visibility(const std::string& name, int node_count);

// The model-link tree at `root`: folder a has a model per name (door with fewer animated nodes than
// its model, lamp with more, spin with no model of its name), folder b two 2-node models and no
// model named like its animations. 11 files, all ok.
void write_nitro_link_tree(const std::filesystem::path& root);

// A BTA0 (water, material lambert5), a BTP0 (blink: eye and mouth patterns) and a BMA0 (fade) at
// `root` as water.nsbta, blink.nsbtp and fade.nsbma.
void write_nitro_kinds_tree(const std::filesystem::path& root);

}  // namespace animdex::test
