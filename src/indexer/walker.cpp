#include "indexer/walker.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <set>
#include <sys/stat.h>
#include <utility>

#include "output/output_folder.h"

namespace animdex {

namespace {

namespace fs = std::filesystem;
using DirectoryId = std::pair<dev_t, ino_t>;

std::int64_t mtime_ns(const struct stat& info) {
  return static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
}

std::string join(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "/" + name;
}

class Walker {
 public:
  explicit Walker(WalkResult& result) : result_(result) {}

  void walk_root(const fs::path& root, const std::string& prefix) {
    struct stat info {};
    if (::stat(root.c_str(), &info) != 0) {
      result_.entries.push_back({prefix.empty() ? root.filename().string() : prefix, root, 0, 0,
                                 fmt::format("cannot read root: {}", std::strerror(errno))});
      return;
    }
    if (S_ISDIR(info.st_mode)) walk_directory(root, prefix, info);
    else add_file(root, prefix.empty() ? root.filename().string() : prefix, info);
  }

 private:
  void walk_directory(const fs::path& directory, const std::string& prefix, const struct stat& info) {
    if (!visited_.insert({info.st_dev, info.st_ino}).second) {
      result_.warnings.push_back({prefix, "folder already visited (symbolic link loop or alias); skipped"});
      return;
    }
    std::error_code error;
    fs::directory_iterator it(directory, fs::directory_options::none, error);
    if (error) {
      result_.entries.push_back({prefix.empty() ? "." : prefix, directory, 0, 0,
                                 fmt::format("cannot list folder: {}", error.message())});
      return;
    }
    std::vector<std::string> names;
    for (; it != fs::directory_iterator(); it.increment(error)) {
      if (error) break;
      names.push_back(it->path().filename().string());
    }
    if (error)
      result_.warnings.push_back({prefix, fmt::format("listing stopped early: {}", error.message())});
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
      // animdex's own record of a folder it wrote (output/output_folder.h), never game data.
      if (name == OutputFolder::kManifestName) continue;
      const fs::path child = directory / name;
      const std::string relative = join(prefix, name);
      struct stat child_info {};
      if (::stat(child.c_str(), &child_info) != 0) {
        // Dangling links and files that vanished since the listing are not files: say so, keep going.
        struct stat link_info {};
        if (::lstat(child.c_str(), &link_info) == 0 && S_ISLNK(link_info.st_mode))
          result_.warnings.push_back({relative, "dangling symbolic link; skipped"});
        else if (errno != ENOENT)
          result_.entries.push_back({relative, child, 0, 0, fmt::format("cannot examine: {}", std::strerror(errno))});
        continue;
      }
      if (S_ISDIR(child_info.st_mode)) walk_directory(child, relative, child_info);
      // FIFOs, sockets and devices are listed too: the reader records each with its type, unread.
      else add_file(child, relative, child_info);
    }
  }

  void add_file(const fs::path& path, const std::string& relative, const struct stat& info) {
    const std::uint64_t size = S_ISREG(info.st_mode) ? static_cast<std::uint64_t>(info.st_size) : 0;
    result_.entries.push_back({relative, path, size, mtime_ns(info), {}});
  }

  WalkResult& result_;
  std::set<DirectoryId> visited_;
};

// With several roots each path starts with its root's folder name, made unique.
std::vector<std::string> root_prefixes(const std::vector<fs::path>& roots) {
  std::vector<std::string> prefixes;
  if (roots.size() < 2) return std::vector<std::string>(roots.size());
  std::set<std::string> used;
  for (const auto& root : roots) {
    auto base = fs::absolute(root).lexically_normal().filename().string();
    if (base.empty()) base = fs::absolute(root).lexically_normal().parent_path().filename().string();
    if (base.empty()) base = "root";
    std::string candidate = base;
    for (int n = 2; !used.insert(candidate).second; ++n) candidate = fmt::format("{}~{}", base, n);
    prefixes.push_back(candidate);
  }
  return prefixes;
}

}  // namespace

WalkResult walk_roots(const std::vector<fs::path>& roots) {
  WalkResult result;
  Walker walker(result);
  const auto prefixes = root_prefixes(roots);
  for (std::size_t i = 0; i < roots.size(); ++i) walker.walk_root(roots[i], prefixes[i]);
  return result;
}

}  // namespace animdex
