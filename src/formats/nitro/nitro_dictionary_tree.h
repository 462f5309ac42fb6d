#pragma once
// The Patricia tree of a resource dictionary exactly as the NitroSystem converter lays it out
// (every dictionary of the real BTA0, BTP0, BMA0, BCA0 and BVA0 files is so): entries inserted in
// dictionary order into a tree whose root stands for the all-zero name, each new node testing the
// highest bit where its name differs from the name its search ends at (the root's: all zeros), and
// the nodes stored in pre-order (the root, then each node before its left, then its right subtree).
// Names are compared as 16-byte NUL-padded strings, bit b = bit (b % 8) of byte b / 8.
#include <cstdint>
#include <string>
#include <vector>

namespace animdex::nitro {

struct DictionaryTreeNode {
  std::uint8_t ref_bit = 127, left = 0, right = 0, entry = 0;
};

std::vector<DictionaryTreeNode> converter_dictionary_tree(const std::vector<std::string>& names);

// The entry a search for `name` ends at (the runtime's lookup), or -1 at the root (no entry).
int dictionary_tree_search(const std::vector<DictionaryTreeNode>& tree, const std::string& name);

}  // namespace animdex::nitro
