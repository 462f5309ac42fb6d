#include "containers/member_paths.h"

#include <fmt/format.h>
#include <unordered_map>

namespace animdex {

std::string escape_member_name(std::string_view name) {
  if (name.find('\0') == std::string_view::npos) return std::string(name);
  std::string escaped;
  escaped.reserve(name.size() + 8);
  for (const char c : name) {
    if (c == '\0') escaped += "\\x00";
    else escaped += c;
  }
  return escaped;
}

namespace {

// Every path of a listing as a tree of components, so "is this path a folder of another one" and
// "is this candidate name free" are one hash look-up each, whatever the depth (hashing every
// prefix of every path would be quadratic in a deep path's length).
class PathTree {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  struct Node {
    bool claimed = false;  // a member holds this path
    bool folder = false;   // some path continues below it
  };

  PathTree() : nodes_(1) {}

  std::uint32_t child(std::uint32_t parent, std::string_view component, bool create) {
    key_.assign(reinterpret_cast<const char*>(&parent), sizeof parent);
    key_.append(component);
    if (const auto found = index_.find(key_); found != index_.end()) return found->second;
    if (!create) return kNone;
    const auto id = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
    index_.emplace(key_, id);
    return id;
  }
  Node& operator[](std::uint32_t id) { return nodes_[id]; }

 private:
  std::vector<Node> nodes_;
  std::unordered_map<std::string, std::uint32_t> index_;
  std::string key_;
};

}  // namespace

void make_member_paths_unique(std::vector<Member>& members, std::vector<std::string>& warnings,
                              std::string_view container, std::size_t max_warnings) {
  PathTree tree;
  std::vector<std::uint32_t> parent_of(members.size()), node_of(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    const std::string_view path = members[i].path;
    std::uint32_t node = 0;
    std::size_t start = 0;
    for (auto slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', start)) {
      node = tree.child(node, path.substr(start, slash - start), true);
      tree[node].folder = true;
      start = slash + 1;
    }
    parent_of[i] = node;
    node_of[i] = tree.child(node, path.substr(start), true);
  }
  std::unordered_map<std::uint32_t, std::uint64_t> next_suffix;  // per original path: linear overall
  std::size_t renamed = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    auto& node = tree[node_of[i]];
    if (!node.claimed && !node.folder) {
      node.claimed = true;
      continue;
    }
    const bool folder = node.folder;
    std::string& path = members[i].path;
    const auto slash = path.rfind('/');
    const std::size_t name_at = slash == std::string::npos ? 0 : slash + 1;
    auto& next = next_suffix.try_emplace(node_of[i], 2).first->second;
    std::string candidate;
    // Any node that exists is taken: a member's path (claimed now or later) or a folder.
    do candidate = fmt::format("{}#{}", std::string_view(path).substr(name_at), next++);
    while (tree.child(parent_of[i], candidate, false) != PathTree::kNone);
    tree[tree.child(parent_of[i], candidate, true)].claimed = true;
    std::string original = std::move(path);
    path = original.substr(0, name_at) + candidate;
    if (renamed++ < max_warnings)
      warnings.push_back(folder ? fmt::format("{}: entry {} ({}) is also the folder of other entries; listed as {}",
                                              container, i, original, path)
                                : fmt::format("{}: entry {} repeats the path {}; listed as {}", container, i,
                                              original, path));
  }
  if (renamed > max_warnings) warnings.push_back(fmt::format("{} more repeated paths not listed", renamed - max_warnings));
}

void cap_warnings(std::vector<std::string>& warnings, std::size_t max) {
  if (warnings.size() <= max) return;
  const std::size_t more = warnings.size() - max;
  warnings.resize(max);
  warnings.push_back(fmt::format("... and {} more warnings", more));
}

}  // namespace animdex
