#pragma once
// A folder a verb fills with many files (`report docs --out`, `sample DIR`, `sample --images`).
// It writes only into a folder that is missing, empty, or that the same verb wrote before, and
// never through a link: the user's own files there are never replaced or removed.
//
// A folder the verb wrote holds its manifest (kManifestName: JSON, the verb and each file's path,
// size and content hash). On the next run the manifest tells the verb's files from the user's:
// a file it does not list, a listed one whose content changed since, or a symlink anywhere below
// the folder is foreign, and the run is refused naming the first one (unless `force`); a subfolder
// holding a manifest of its own is another output's and passed over. When the run
// finishes, files the previous run wrote and this one did not (stale pages) are removed, if their
// content is still what was written; the manifest is replaced.
#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace animdex {

// The folder holds something the verb did not write: a usage error (exit 2) naming it.
class ForeignFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutputFolder {
 public:
  static constexpr std::string_view kManifestName = ".animdex-manifest";

  // Checks `root` (throws ForeignFileError unless `force`) and creates it if missing. `verb` names
  // the writer in the manifest and in messages ("report docs").
  OutputFolder(std::filesystem::path root, std::string verb, bool force);

  // Writes `bytes` at `relative` ('/'-separated, no "..", not absolute), creating its folders.
  // A folder on the way that is a symlink is refused, never followed.
  void write(const std::filesystem::path& relative, std::string_view bytes);

  // Removes the previous run's files this run did not write and writes the manifest. Until it is
  // called the previous manifest stays, so an interrupted run can be run again.
  void finish();

  const std::filesystem::path& root() const { return root_; }

 private:
  struct Entry {
    std::uint64_t size = 0;
    std::string hash;
  };
  void check_foreign() const;
  // root/relative after checking each folder on the way; missing folders are created (`create`)
  // or make the answer empty.
  std::filesystem::path checked_target(const std::filesystem::path& relative, bool create) const;

  std::filesystem::path root_;
  std::string verb_;
  bool force_ = false;
  std::map<std::string, Entry> previous_;  // from the manifest found, by relative path
  std::map<std::string, Entry> written_;
};

}  // namespace animdex
