#include "output/output_folder.h"

#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "core/content_hash.h"
#include "output/output_file.h"

namespace animdex {

namespace {

namespace fs = std::filesystem;

// A path a manifest or a caller may name: relative, no "..", no empty or "." component.
bool is_plain_relative(const fs::path& relative) {
  if (relative.empty() || relative.is_absolute() || relative.has_root_name()) return false;
  for (const auto& part : relative) {
    const auto text = part.string();
    if (text.empty() || text == "." || text == "..") return false;
  }
  return true;
}

std::optional<std::string> read_file(const fs::path& path, std::uint64_t expected_size) {
  std::error_code error;
  if (fs::file_size(path, error) != expected_size || error) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in && !in.eof()) return std::nullopt;
  return std::move(bytes).str();
}

std::string hash_text(std::string_view bytes) {
  return hash_bytes(std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()));
}

}  // namespace

OutputFolder::OutputFolder(fs::path root, std::string verb, bool force)
    : root_(std::move(root)), verb_(std::move(verb)), force_(force) {
  std::error_code error;
  const auto status = fs::status(root_, error);
  if (fs::exists(status) && !fs::is_directory(status))
    throw ForeignFileError(fmt::format("{} is not a folder; give a new or empty folder", root_.string()));
  if (!fs::exists(status)) {
    fs::create_directories(root_);
    return;
  }
  const auto manifest = root_ / kManifestName;
  if (fs::is_regular_file(fs::symlink_status(manifest, error))) {
    try {
      std::ifstream in(manifest, std::ios::binary);
      const auto json = nlohmann::json::parse(in);
      const auto writer = json.at("verb").get<std::string>();
      if (writer != verb_ && !force_)
        throw ForeignFileError(fmt::format("{} was written by `animdex {}`, not `animdex {}`; give another folder, "
                                           "or --force to write into it",
                                           root_.string(), writer, verb_));
      // Another verb's files are never this one's to remove, even with --force.
      if (writer == verb_)
        for (const auto& file : json.at("files"))
          if (is_plain_relative(file.at("path").get<std::string>()))
            previous_[file.at("path").get<std::string>()] = {file.at("size").get<std::uint64_t>(),
                                                             file.at("hash").get<std::string>()};
    } catch (const nlohmann::json::exception&) {
      if (!force_)
        throw ForeignFileError(fmt::format("{} is not a manifest animdex wrote; give another folder, or --force to "
                                           "write into it",
                                           manifest.string()));
      previous_.clear();
    }
  }
  if (!force_) check_foreign();
}

void OutputFolder::check_foreign() const {
  const auto refuse = [&](const fs::path& path, std::string_view why) {
    throw ForeignFileError(fmt::format("{} holds {} that `animdex {}` did not write ({}); give a new or empty folder, "
                                       "or --force to write into it (files of the same name are replaced)",
                                       root_.string(), path.string(), verb_, why));
  };
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(root_, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    const auto status = it->symlink_status(error);
    const auto relative = fs::relative(it->path(), root_).generic_string();
    if (fs::is_symlink(status)) refuse(it->path(), "a symbolic link");
    if (fs::is_directory(status)) {
      // A folder output of its own inside this one (`sample s --images s/img`): its manifest
      // guards it, and this verb never writes there.
      if (fs::is_regular_file(fs::symlink_status(it->path() / kManifestName, error))) it.disable_recursion_pending();
      continue;
    }
    if (relative == kManifestName) continue;
    const auto listed = previous_.find(relative);
    if (listed == previous_.end()) refuse(it->path(), "not in its manifest");
    const auto bytes = read_file(it->path(), listed->second.size);
    if (!bytes || hash_text(*bytes) != listed->second.hash) refuse(it->path(), "changed since it was written");
  }
  if (error) throw ForeignFileError(fmt::format("cannot list {}: {}", root_.string(), error.message()));
}

fs::path OutputFolder::checked_target(const fs::path& relative, bool create) const {
  if (!is_plain_relative(relative))
    throw std::runtime_error(fmt::format("will not write {} outside {}", relative.string(), root_.string()));
  // Each folder on the way is created here or must already be a real folder: a link planted
  // inside the output (docs/dump -> /elsewhere) would send the pages outside it.
  fs::path at = root_;
  const auto parent = relative.parent_path();
  for (const auto& part : parent) {
    at /= part;
    std::error_code error;
    const auto status = fs::symlink_status(at, error);
    if (fs::is_symlink(status))
      throw std::runtime_error(fmt::format("will not write through {}: it is a symbolic link", at.string()));
    if (!fs::exists(status) && create) fs::create_directory(at);
    else if (!fs::exists(status)) return {};
    else if (!fs::is_directory(status))
      throw std::runtime_error(fmt::format("cannot write under {}: it is not a folder", at.string()));
  }
  return root_ / relative;
}

void OutputFolder::write(const fs::path& relative, std::string_view bytes) {
  const auto target = checked_target(relative, /*create=*/true);
  write_file_checked(target, bytes);
  written_[relative.generic_string()] = {bytes.size(), hash_text(bytes)};
}

void OutputFolder::finish() {
  for (const auto& [relative, entry] : previous_) {
    if (written_.count(relative)) continue;
    fs::path target;
    try {
      target = checked_target(fs::path(relative), /*create=*/false);
    } catch (const std::runtime_error&) {
      continue;  // a link on the way: nothing of ours to remove there
    }
    std::error_code error;
    if (target.empty() || !fs::is_regular_file(fs::symlink_status(target, error))) continue;
    const auto bytes = read_file(target, entry.size);
    if (!bytes || hash_text(*bytes) != entry.hash) continue;  // never a file changed since
    fs::remove(target, error);
    // Its folders go too once empty (removing a folder that is not fails, harmlessly).
    for (auto folder = target.parent_path(); folder != root_ && !error; folder = folder.parent_path())
      if (!fs::remove(folder, error)) break;
  }
  nlohmann::json files = nlohmann::json::array();
  for (const auto& [relative, entry] : written_)
    files.push_back({{"path", relative}, {"size", entry.size}, {"hash", entry.hash}});
  const nlohmann::json manifest = {
      {"written_by", "animdex"}, {"verb", verb_}, {"files", files}};
  write_file_checked(root_ / kManifestName, manifest.dump(1) + "\n");
}

}  // namespace animdex
