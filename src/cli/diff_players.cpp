#include "cli/diff_players.h"

#include <SQLiteCpp/Statement.h>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "cli/errors.h"
#include "cli/file_export.h"
#include "cli/view_verb.h"
#include "output/output_file.h"
#include "reports/dump_files.h"
#include "reports/player_page.h"

namespace animdex {

namespace {

// What a side's animation is called where the export names it: its slot text (KH2 "N", nested
// "P/N") where the format has slots, else its name; both empty for a file's only animation.
struct Wanted {
  std::string slot, name;

  bool matches(const std::string& entry_slot, const std::string& entry_name) const {
    return entry_slot.empty() ? name.empty() || entry_name == name : entry_slot == slot;
  }
};

struct Side {
  std::int64_t file_id = 0;
  std::string file_path;  // as the dump stores it
  Wanted wanted;
};

Side side_of(SQLite::Database& db, std::int64_t animation_id) {
  SQLite::Statement query(db, "SELECT f.id, f.path, a.slot, a.name, (SELECT s.parent_slot FROM mset_slots s WHERE "
                              "s.animation_id = a.id AND s.parent_slot IS NOT NULL LIMIT 1) "
                              "FROM animations a JOIN files f ON f.id = a.file_id WHERE a.id = ?");
  query.bind(1, animation_id);
  Side side;
  if (!query.executeStep()) return side;
  side.file_id = query.getColumn(0).getInt64();
  side.file_path = query.getColumn(1).getString();
  if (!query.getColumn(2).isNull())
    side.wanted.slot = query.getColumn(4).isNull()
                           ? std::to_string(query.getColumn(2).getInt64())
                           : fmt::format("{}/{}", query.getColumn(4).getInt64(), query.getColumn(2).getInt64());
  if (!query.getColumn(3).isNull()) side.wanted.name = query.getColumn(3).getString();
  return side;
}

// A page's file name from the file's path in the dump: letters, digits, '-', '_' and '.' kept,
// the rest '_', made unique with ~2, ~3 ('~' is never kept).
std::string page_name(const std::string& path, std::set<std::string>& used) {
  std::string stem;
  for (const unsigned char c : path.substr(0, 120))
    stem += std::isalnum(c) || c == '-' || c == '_' || c == '.' ? static_cast<char>(c) : '_';
  std::string name = stem + ".html";
  for (std::size_t n = 2; !used.insert(name).second; ++n) name = fmt::format("{}~{}.html", stem, n);
  return name;
}

// The changed animations of each file, files in the report's order.
std::vector<std::vector<const reports::AnimationChange*>> changed_by_file(const reports::DiffReport& report) {
  std::vector<std::vector<const reports::AnimationChange*>> files;
  std::map<std::string, std::size_t> index;
  for (const auto& animation : report.animations) {
    if (animation.change != "changed" || !animation.from_animation_id || !animation.to_animation_id) continue;
    const auto [found, added] = index.emplace(animation.path, files.size());
    if (added) files.emplace_back();
    files[found->second].push_back(&animation);
  }
  return files;
}

struct SidePlayer {
  reports::FilePlayer player;
  std::vector<Wanted> wanted;  // in the file's changed animations' order
};

SidePlayer side_player(SQLite::Database& db, const reports::DumpRoots& roots,
                       const std::vector<std::optional<std::int64_t>>& ids, std::size_t scripts_bytes) {
  SidePlayer made;
  Side side;
  for (const auto& id : ids) {
    side = side_of(db, *id);
    made.wanted.push_back(side.wanted);
  }
  const auto disk = reports::file_on_disk(roots, side.file_path);
  if (disk.empty()) {
    made.player.problem = "not found under its dump's roots";
    return made;
  }
  const auto model = reports::linked_model(db, side.file_id);
  const auto wanted = made.wanted;
  made.player = compared_side_quietly(disk, model ? reports::file_on_disk(roots, *model) : std::filesystem::path(),
                                      scripts_bytes, [wanted](const ExportEntry& entry) {
                                        for (const auto& w : wanted)
                                          if (w.matches(entry.slot, entry.name)) return true;
                                        return false;
                                      });
  return made;
}

// The page's animation a changed animation plays as, by the newer side's name for it.
std::optional<std::string> shown_name(const reports::PlayerPage& side, const Wanted& wanted) {
  for (const auto& animation : side.animations)
    if (wanted.matches(animation.slot, animation.source_name)) return animation.name;
  return std::nullopt;
}

std::vector<std::string> side_notes(const char* side, const std::string& label, const reports::PlayerPage& page) {
  std::vector<std::string> notes;
  for (const auto& note : page.notes) notes.push_back(fmt::format("{} ({}): {}", side, label, note));
  return notes;
}

}  // namespace

DiffPlayers write_diff_players(const DiffSides& sides, const reports::DiffReport& report,
                               const std::filesystem::path& page) {
  DiffPlayers players;
  players.folder = page.parent_path() / (page.stem().string() + ".players");
  const auto files = changed_by_file(report);
  if (files.empty()) return players;
  const CapturedFailure quiet;
  auto scripts = player_scripts();
  if (std::get_if<int>(&scripts)) {
    players.notes.push_back("no 3D players: " + quiet.message());
    return players;
  }
  std::size_t scripts_bytes = 0;
  for (const auto& [name, text] : std::get<0>(scripts)) scripts_bytes += text.size();
  const auto from_roots = reports::dump_roots(sides.from_db, sides.from_label);
  const auto to_roots = reports::dump_roots(sides.to_db, sides.to_label);
  std::vector<std::string> problems;
  std::set<std::string> used;
  for (const auto& changed : files) {
    const auto& path = changed.front()->path;
    if (players.pages == kMostComparePages) {
      problems.push_back(fmt::format("{}: past the first {} players", path, kMostComparePages));
      continue;
    }
    std::vector<std::optional<std::int64_t>> from_ids, to_ids;
    for (const auto* animation : changed) {
      from_ids.push_back(animation->from_animation_id);
      to_ids.push_back(animation->to_animation_id);
    }
    auto before = side_player(sides.from_db, from_roots, from_ids, scripts_bytes);
    auto after = side_player(sides.to_db, to_roots, to_ids, scripts_bytes);
    if (!before.player.problem.empty() || !after.player.problem.empty()) {
      problems.push_back(fmt::format("{}: {}", path, before.player.problem.empty() ? after.player.problem
                                                                                 : before.player.problem));
      continue;
    }
    const auto name = page_name(path, used);
    const auto target = players.folder / name;
    std::error_code error;
    if (std::filesystem::exists(players.folder, error) && !std::filesystem::is_directory(players.folder, error)) {
      players.notes.push_back(fmt::format("no 3D players: {} is not a folder; it is left alone", players.folder.string()));
      return players;
    }
    if (!player_replaceable(target)) {
      problems.push_back(fmt::format("{}: {} exists and is not a player animdex wrote; it is left alone", path,
                                     target.string()));
      continue;
    }
    reports::ComparePage compare{fmt::format("{}: {} and {}", path, report.from_label, report.to_label),
                                 std::move(before.player.page), std::move(after.player.page), {},
                                 "../" + page.filename().string()};
    compare.notes.push_back(fmt::format("Before, {}, in blue; after, {}, in red. Each side plays on its own "
                                        "dump's skeleton; past its last frame a side holds its last pose.",
                                        report.from_label, report.to_label));
    for (auto& note : side_notes("before", report.from_label, compare.before)) compare.notes.push_back(note);
    for (auto& note : side_notes("after", report.to_label, compare.after)) compare.notes.push_back(note);
    std::filesystem::create_directories(players.folder);
    write_file_checked(target, reports::compare_page_html(compare, inlined(std::get<0>(scripts))));
    ++players.pages;
    for (std::size_t a = 0; a < changed.size(); ++a) {
      auto shown = shown_name(compare.after, after.wanted[a]);
      if (!shown) shown = shown_name(compare.before, before.wanted[a]);
      if (shown)
        players.links.push_back({changed[a], reports::player_link(reports::percent_encoded(players.folder.filename().string()) + "/" + name, *shown)});
    }
  }
  if (!problems.empty())
    players.notes.push_back(fmt::format("{} changed file{} without a 3D player:{}", problems.size(),
                                        problems.size() == 1 ? "" : "s", listed(problems)));
  return players;
}

}  // namespace animdex
