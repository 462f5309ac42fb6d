#include "formats/nitro/nitro_dictionary_tree.h"

#include <cstddef>

namespace animdex::nitro {

namespace {

using Tree = std::vector<DictionaryTreeNode>;

bool name_bit(const std::string& name, int bit) {
  const auto byte = static_cast<std::size_t>(bit / 8);
  return byte < name.size() && ((static_cast<unsigned char>(name[byte]) >> (bit % 8)) & 1);
}

// A link from `from` to `to` goes down the tree when the tested bit falls (else it points back up).
bool goes_down(const Tree& tree, std::size_t from, std::size_t to) { return tree[to].ref_bit < tree[from].ref_bit; }

// The node a search for `name` ends at: 0 (the root, the all-zero name) or an entry's node.
std::size_t search_end(const Tree& tree, const std::string& name) {
  std::size_t node = 0, next = tree[0].left;
  while (goes_down(tree, node, next)) {
    node = next;
    next = name_bit(name, tree[node].ref_bit) ? tree[node].right : tree[node].left;
  }
  return next;
}

void insert(Tree& tree, const std::vector<std::string>& names, std::size_t entry) {
  const std::string& name = names[entry];
  const std::size_t end = search_end(tree, name);
  const std::string closest = end == 0 ? std::string() : names[tree[end].entry];
  int bit = 127;
  while (bit >= 0 && name_bit(name, bit) == name_bit(closest, bit)) --bit;
  if (bit < 0) bit = 0;  // a duplicate name: the tree stays walkable, the name is unreachable
  // Walk down again to where a node testing `bit` belongs.
  std::size_t parent = 0, child = tree[0].left;
  while (goes_down(tree, parent, child) && tree[child].ref_bit > bit) {
    parent = child;
    child = name_bit(name, tree[child].ref_bit) ? tree[child].right : tree[child].left;
  }
  const auto self = static_cast<std::uint8_t>(tree.size());
  DictionaryTreeNode node{static_cast<std::uint8_t>(bit), 0, 0, static_cast<std::uint8_t>(entry)};
  (name_bit(name, bit) ? node.right : node.left) = self;
  (name_bit(name, bit) ? node.left : node.right) = static_cast<std::uint8_t>(child);
  tree.push_back(node);
  if (parent == 0) tree[0].left = self;
  else (name_bit(name, tree[parent].ref_bit) ? tree[parent].right : tree[parent].left) = self;
}

void pre_order(const Tree& tree, std::size_t node, std::vector<std::size_t>& order) {
  order.push_back(node);
  for (const std::size_t child : {std::size_t{tree[node].left}, std::size_t{tree[node].right}})
    if (child != 0 && goes_down(tree, node, child)) pre_order(tree, child, order);
}

// The tree with its nodes renumbered in pre-order; nodes no downward link reaches (after a
// duplicate name) follow in insertion order.
Tree renumbered(const Tree& tree) {
  std::vector<std::size_t> order{0};
  if (tree.size() > 1) pre_order(tree, tree[0].left, order);
  std::vector<bool> placed(tree.size(), false);
  for (const std::size_t node : order) placed[node] = true;
  for (std::size_t node = 1; node < tree.size(); ++node)
    if (!placed[node]) order.push_back(node);
  std::vector<std::uint8_t> position(tree.size());
  for (std::size_t p = 0; p < order.size(); ++p) position[order[p]] = static_cast<std::uint8_t>(p);
  Tree out;
  for (const std::size_t node : order)
    out.push_back({tree[node].ref_bit, position[tree[node].left], position[tree[node].right], tree[node].entry});
  return out;
}

}  // namespace

std::vector<DictionaryTreeNode> converter_dictionary_tree(const std::vector<std::string>& names) {
  Tree tree(1);  // the root: ref bit 127, the all-zero name
  for (std::size_t entry = 0; entry < names.size(); ++entry) insert(tree, names, entry);
  return renumbered(tree);
}

int dictionary_tree_search(const std::vector<DictionaryTreeNode>& tree, const std::string& name) {
  if (tree.size() < 2) return -1;
  const std::size_t end = search_end(tree, name);
  return end == 0 ? -1 : tree[end].entry;
}

}  // namespace animdex::nitro
