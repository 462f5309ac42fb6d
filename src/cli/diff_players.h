#pragma once
// The 3D players of `diff --format html --out PAGE.html`: for each file whose animations changed
// and play on a skeleton, one page in PAGE.players/ that draws the older dump's animation (blue)
// and the newer one's (red) over one another, with one slider and a chooser of the file's changed
// animations (reports/player_page.h, ComparePage). Each side is read again from its dump's roots
// on the skeleton the index linked it to, so the two sides may differ in skeleton as well.
#include <SQLiteCpp/Database.h>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "reports/diff_curves.h"
#include "reports/diff_report.h"

namespace animdex {

struct DiffPlayers {
  std::filesystem::path folder;        // PAGE.players beside the page
  std::size_t pages = 0;               // players written
  std::vector<reports::ChangePlayer> links;  // addresses relative to the page
  std::vector<std::string> notes;      // what has no player, and why
};

// A file's page holds at most this many changed animations' players, and a diff at most this many
// pages: a diff of two whole games may change thousands of files.
inline constexpr std::size_t kMostComparePages = 30;

struct DiffSides {
  SQLite::Database& from_db;
  std::string from_label;
  SQLite::Database& to_db;
  std::string to_label;
};

// Writes the players beside `page` (never over a file that is not an animdex player) and says
// which changed animations they play.
DiffPlayers write_diff_players(const DiffSides& sides, const reports::DiffReport& report,
                               const std::filesystem::path& page);

}  // namespace animdex
