// The dictionary tree the Nitro writers lay out (nitro_dictionary_tree.h): the converter's exact
// node order on a real dictionary, and a search finding every name among many.
#include <catch2/catch.hpp>

#include "formats/nitro/nitro_dictionary_tree.h"

using namespace animdex::nitro;

namespace {

std::vector<std::array<int, 4>> nodes_of(const std::vector<DictionaryTreeNode>& tree) {
  std::vector<std::array<int, 4>> nodes;
  for (const auto& node : tree) nodes.push_back({node.ref_bit, node.left, node.right, node.entry});
  return nodes;
}

}  // namespace

TEST_CASE("dictionary tree: the converter's layout of real dictionaries", "[nitro][writer]") {
  // HGSS a/2/4/3 member 3 (BTA0 ho_s02_1_a), its material dictionary as stored: each name's node
  // tests the highest bit where it differs from the all-zero name, nodes in pre-order.
  CHECK(nodes_of(converter_dictionary_tree({"hod_e03w", "ho_002", "lambert65"})) ==
        std::vector<std::array<int, 4>>{{127, 1, 0, 0}, {69, 2, 1, 2}, {62, 3, 2, 0}, {45, 0, 3, 1}});
  // hiden_effect member 5 (BMA0 iwakudaki).
  CHECK(nodes_of(converter_dictionary_tree({"hahen1", "hahen2", "hahen3", "lambert3"})) ==
        std::vector<std::array<int, 4>>{{127, 1, 0, 0}, {61, 2, 1, 3}, {45, 0, 3, 0}, {41, 2, 4, 1}, {40, 3, 4, 2}});
  // One name: the bit of its highest set bit (`lambert5`: byte 7 '5', bit 5), no entries: the root alone.
  CHECK(nodes_of(converter_dictionary_tree({"lambert5"})) ==
        std::vector<std::array<int, 4>>{{127, 1, 0, 0}, {61, 0, 1, 0}});
  CHECK(nodes_of(converter_dictionary_tree({})) == std::vector<std::array<int, 4>>{{127, 0, 0, 0}});
}

TEST_CASE("dictionary tree: a search finds every name among many", "[nitro][writer]") {
  std::vector<std::string> names;
  for (int i = 0; i < 200; ++i) names.push_back((i % 3 ? "lambert" : "mat_") + std::to_string(i * 37 % 1000));
  names.push_back("exactly16bytes__");
  const auto tree = converter_dictionary_tree(names);
  REQUIRE(tree.size() == names.size() + 1);
  for (std::size_t e = 0; e < names.size(); ++e) {
    INFO(names[e]);
    CHECK(dictionary_tree_search(tree, names[e]) == static_cast<int>(e));
  }
  CHECK(dictionary_tree_search(converter_dictionary_tree({}), "any") == -1);
}
