#pragma once
// `diff --format html`: links to the 3D players of the changed animations (cli/diff_players.h), and
// each changed track drawn before and after on one chart (two colours, a
// "before" / "after" legend, keys marked), so a changed attack is seen at a glance. Lines join the
// keys each dump stores (`keyframes`), times as the files store them.
#include <SQLiteCpp/Database.h>
#include <cstddef>
#include <string>
#include <vector>

#include "reports/diff_report.h"
#include "reports/report_format.h"

namespace animdex::reports {

// The charts of the changed tracks (the first `limit` of them), in the order of the tracks
// section, as HTML; empty when no track changed.
std::string changed_track_charts(SQLite::Database& from_db, SQLite::Database& to_db, const DiffReport& report,
                                 std::size_t limit = 300);

// Puts those charts above the table of the "tracks" section and says what they show.
void add_changed_track_charts(std::vector<Section>& sections, SQLite::Database& from_db, SQLite::Database& to_db,
                              const DiffReport& report);

// A changed animation and the address of the page that plays its before and after in 3D.
struct ChangePlayer {
  const AnimationChange* animation = nullptr;
  std::string href;
};

// Lists the players above the table of the "animations" section, and adds `note` (what has no
// player and why, or how to get them) to it.
void add_change_players(std::vector<Section>& sections, const std::vector<ChangePlayer>& players,
                        const std::string& note);

}  // namespace animdex::reports
