#include "reports/docs_curves.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <fmt/format.h>

#include "output/result_table.h"
#include "reports/curve_page.h"
#include "reports/docs_report.h"
#include "reports/dump_files.h"
#include "reports/html.h"
#include "reports/report_format.h"
#include "reports/stored_curves.h"

namespace animdex::reports {

namespace {

namespace fs = std::filesystem;

struct FileRow {
  std::int64_t id = 0;
  std::string path, owner, format, content_hash;
  std::optional<std::string> owner_name;
};

struct AnimationRow {
  std::int64_t id = 0;
  std::optional<std::int64_t> slot;
  std::optional<std::string> name;
};

std::optional<std::string> optional_text(const SQLite::Column& column) {
  return column.isNull() ? std::nullopt : std::optional<std::string>(column.getString());
}

// Files with animations, by owner (character, else path) and path, as the docs' tables group them.
std::vector<FileRow> files_of(SQLite::Database& db, const std::string& label) {
  SQLite::Statement query(db, "SELECT f.id, f.path, COALESCE(f.character, f.path), f.format, COALESCE(f.content_hash, ''), "
                              "(SELECT c.name FROM ref_characters c WHERE c.code = f.character AND c.game = "
                              "(SELECT r.game FROM ref_formats r WHERE r.format = f.format)) "
                              "FROM files f JOIN dumps d ON d.id = f.dump_id "
                              "WHERE d.label = ? AND f.status = 'ok' AND f.animation_count > 0 ORDER BY 3, 2");
  query.bind(1, label);
  std::vector<FileRow> files;
  while (query.executeStep())
    files.push_back({query.getColumn(0).getInt64(), query.getColumn(1).getString(), query.getColumn(2).getString(),
                     query.getColumn(3).getString(), query.getColumn(4).getString(), optional_text(query.getColumn(5))});
  return files;
}

std::vector<AnimationRow> animations_of(SQLite::Database& db, std::int64_t file_id) {
  SQLite::Statement query(db, "SELECT id, slot, name FROM animations WHERE file_id = ? ORDER BY slot, id");
  query.bind(1, file_id);
  std::vector<AnimationRow> rows;
  while (query.executeStep())
    rows.push_back({query.getColumn(0).getInt64(),
                    query.getColumn(1).isNull() ? std::nullopt : std::optional(query.getColumn(1).getInt64()),
                    optional_text(query.getColumn(2))});
  return rows;
}

NodeNames names_of(const AnimationCurves& curves, const BoneNames& bones, const std::string& format) {
  NodeNames names;
  for (const auto& channel : curves.channels) {
    if (!channel.node || channel.node_kind == "ik_helper") continue;
    if (const auto name = bones.of_format(format, *channel.node)) names[{channel.node_kind, *channel.node}] = *name;
  }
  return names;
}

// The database's name of the animation in `slot` (GNT purposes, KH2 motion names), when one
// animation of the file has that slot: a KH2 nested set's motion `3/1` is stored as slot 1, which
// must not name the set's own slot 1.
std::optional<std::string> stored_name(const std::vector<AnimationRow>& rows, const std::string& slot) {
  std::optional<std::string> name;
  int matches = 0;
  for (const auto& row : rows)
    if (row.slot && std::to_string(*row.slot) == slot) {
      name = row.name;
      ++matches;
    }
  return matches == 1 ? name : std::nullopt;
}

// The file read again from where it was indexed, or why it was not: gone, unreadable, or changed.
FileCurves read_again(const FileRow& file, const DumpRoots& roots, const CurveLoader& load) {
  FileCurves read;
  const auto disk = file_on_disk(roots, file.path);
  if (!load) read.problem = "the report was not asked to read files";
  else if (disk.empty()) read.problem = "its root is not recorded";
  else read = load(disk, CurveRequest{});
  if (!read.content_hash.empty() && read.content_hash != file.content_hash)  // whether its curves evaluate or not
    read.problem = "it has changed since it was indexed";
  return read;
}

// A player page of the file: FILE.html, then FILE~2.html ... ('~' is never part of a folder_name).
std::string player_file(const std::string& stem, std::size_t number) {
  return number == 1 ? stem + ".html" : fmt::format("{}~{}.html", stem, number);
}

// Players of one file: each page's address from a curve page, and its animations.
using FilePlayers = std::vector<std::pair<std::string, PlayerPage>>;

// Writes the file's players under `folder`/players/, as many pages as its animations need within a
// page's budget (each holds at least one, so at most one page per animation).
FilePlayers write_players(SQLite::Database& db, const FileRow& file, const DumpRoots& roots, const std::string& folder,
                          const std::string& back, const CurvePagesOptions& options, const PageWriter& write) {
  FilePlayers written;
  const auto model = options.player ? linked_model(db, file.id) : std::nullopt;
  const auto disk = file_on_disk(roots, file.path);
  if (!model || disk.empty()) return written;
  PlayerScripts scripts{false, "", "", ""};
  for (std::size_t i = 0; i < options.player_scripts.size() && i < 3; ++i)
    (i == 0 ? scripts.three : i == 1 ? scripts.gltf_loader : scripts.orbit_controls) = options.player_scripts[i].first;
  const std::string stem = folder_name(file.path);
  for (std::size_t skip = 0;;) {
    auto made = options.player(disk, file_on_disk(roots, *model), skip);
    if (!made.problem.empty() || made.page.animations.empty()) break;
    auto& page = made.page;
    page.title = file.path;
    page.back_link = "../curves/" + fs::path(back).filename().string();
    if (page.more) page.next_link = player_file(stem, written.size() + 2);
    const auto name = player_file(stem, written.size() + 1);
    write(folder + "/players/" + name, player_page_html(page, scripts));
    page.glb_base64.clear();  // written: only its animations' names are needed now
    skip += page.animations.size();
    const bool more = page.more;
    written.emplace_back("../players/" + name, std::move(page));
    if (!more) break;
  }
  return written;
}

struct Drawn {
  std::vector<CurveSection> sections;
  std::vector<std::string> labels;  // per section, for the index: "0000.mot slot 0: 0x0000 (Idle)"
  bool read = false;
};

// One file's sections: from the file read again, else from the stored keys with the reason.
Drawn draw_file(SQLite::Database& db, const FileRow& file, const DumpRoots& roots, const BoneNames& bones,
                const CurveLoader& load) {
  const auto rows = animations_of(db, file.id);
  const std::string file_name = fs::path(file.path).filename().string();
  const std::string prefix = file.owner == file.path ? "" : file_name + " ";
  auto read = read_again(file, roots, load);
  Drawn drawn;
  drawn.read = read.problem.empty();
  std::vector<AnimationCurves> animations;
  if (drawn.read) animations = std::move(read.animations);
  else
    for (const auto& row : rows) animations.push_back(stored_curves(db, row.id, row.slot ? std::to_string(*row.slot) : ""));
  for (auto& curves : animations) {
    CurveSection section;
    const std::string heading = animation_heading(curves, stored_name(rows, curves.slot), file_name);
    section.heading = file.path + ": " + heading;
    drawn.labels.push_back(prefix + heading);
    section.stored_keys = !drawn.read;
    if (!drawn.read)
      section.note = fmt::format("Drawn from the keys the database stores, lines joining them: the file was not read "
                                 "again ({}).",
                                 read.problem);
    section.node_names = names_of(curves, bones, file.format);
    section.curves = std::move(curves);
    drawn.sections.push_back(std::move(section));
  }
  return drawn;
}

// A page of an owner's curves: `sas.html`, then `sas~2.html` ... ('~' is never part of a folder_name,
// so a continuation cannot be another owner's page).
std::string page_name(const std::string& folder, const std::string& owner, std::size_t number) {
  return fmt::format("{}/curves/{}{}.html", folder, folder_name(owner), number == 1 ? "" : fmt::format("~{}", number));
}

std::string owner_title(const OwnerCurves& owner) {
  return owner.name ? fmt::format("{} ({})", owner.owner, *owner.name) : owner.owner;
}

// Writes an owner's sections on as many pages as the budget needs; returns each section's page.
class OwnerPages {
 public:
  OwnerPages(const std::string& folder, OwnerCurves& owner, const CurvePagesOptions& options, const PageWriter& write)
      : folder_(folder), owner_(owner), options_(options), write_(write) {}

  std::string add(const CurveSection& section) {
    CurveSection numbered = section;
    numbered.anchor = fmt::format("a{}", count_++);
    const std::string html = curve_section_html(numbered, {options_.samples_per_line, options_.page_budget});
    if (!body_.empty() && body_.size() + html.size() > options_.page_budget) flush(true);
    body_ += html;
    navigation_.emplace_back(numbered.anchor, numbered.heading);
    return page_name(folder_, owner_.owner, page_) + "#" + numbered.anchor;
  }

  void flush(bool more_follow) {
    const std::string title = fmt::format("Curves: {}{}", owner_title(owner_), page_ == 1 ? "" : fmt::format(" (page {})", page_));
    std::string intro = "<p class=\"note\"><a href=\"../../index.html\">Every character's curves</a>";
    if (page_ > 1)
      intro += fmt::format(" | <a href=\"{}\">previous page</a>",
                           html_escape(fs::path(page_name(folder_, owner_.owner, page_ - 1)).filename().string()));
    if (more_follow)
      intro += fmt::format(" | <a href=\"{}\">next page</a>",
                           html_escape(fs::path(page_name(folder_, owner_.owner, page_ + 1)).filename().string()));
    intro += "</p>\n";
    write_(page_name(folder_, owner_.owner, page_), html_page(title, navigation_, intro + body_));
    body_.clear();
    navigation_.clear();
    ++page_;
  }

 private:
  const std::string& folder_;
  OwnerCurves& owner_;
  const CurvePagesOptions& options_;
  const PageWriter& write_;
  std::string body_;
  std::vector<std::pair<std::string, std::string>> navigation_;
  std::size_t page_ = 1, count_ = 0;
};

}  // namespace

DumpCurves write_dump_curves(SQLite::Database& db, const std::string& label, const std::string& folder,
                             const CurvePagesOptions& options, const PageWriter& write) {
  const auto files = files_of(db, label);
  const auto roots = dump_roots(db, label);
  const BoneNames bones(db);
  DumpCurves dump;
  for (std::size_t i = 0; i < files.size();) {
    auto& owner = dump.owners.emplace_back();
    owner.owner = files[i].owner;
    owner.name = files[i].owner_name;
    owner.page = page_name(folder, owner.owner, 1);
    OwnerPages pages(folder, owner, options, write);
    for (; i < files.size() && files[i].owner == owner.owner; ++i) {
      auto drawn = draw_file(db, files[i], roots, bones, options.load);
      ++(drawn.read ? dump.files_read : dump.files_from_keys);
      const auto players = drawn.read ? write_players(db, files[i], roots, folder, owner.page, options, write) : FilePlayers{};
      if (!players.empty() && dump.players++ == 0)
        for (const auto& [name, text] : options.player_scripts) write(folder + "/players/" + name, text);
      PlayerAddresses addresses;
      for (const auto& [href, page] : players) addresses.add(page, href);
      for (std::size_t s = 0; s < drawn.sections.size(); ++s) {
        drawn.sections[s].player = addresses.of(drawn.sections[s].curves);
        dump.played += drawn.sections[s].player.empty() ? 0 : 1;
        owner.animations.push_back({pages.add(drawn.sections[s]), drawn.labels[s]});
      }
    }
    pages.flush(false);
  }
  return dump;
}

std::string curves_index_html(const std::vector<std::pair<std::string, DumpCurves>>& dumps) {
  std::vector<std::pair<std::string, std::string>> navigation;
  std::string body =
      "<p class=\"note\">The curves of every animation, one page per character (or file without one): a chart per "
      "bone or node, its channels over time, keys marked. Tables and charts of the dumps: <a "
      "href=\"animdex-docs.html\">animdex-docs.html</a>; wiki pages: <a href=\"README.md\">README.md</a>.</p>\n";
  for (const auto& [label, dump] : dumps) {
    const std::string anchor = "dump-" + folder_name(label);
    navigation.emplace_back(anchor, label);
    body += fmt::format("<h2 id=\"{}\">Dump {}</h2>\n<p class=\"note\">{}</p>\n", html_escape(anchor), html_escape(label),
                        html_escape(fmt::format("{} files read again from where they were indexed; {} drawn from the "
                                                "keys the database stores (each section says why). {} animations "
                                                "of {} files play in 3D on their skeleton (\"Play it in 3D\").",
                                                dump.files_read, dump.files_from_keys, dump.played, dump.players)));
    if (dump.owners.empty()) {
      body += "<p class=\"note\">None.</p>\n";
      continue;
    }
    body += "<table>\n<tr><th>character</th><th>animations</th></tr>\n";
    for (const auto& owner : dump.owners) {
      std::string links;
      for (const auto& animation : owner.animations)
        links += fmt::format("{}<a href=\"{}\">{}</a>", links.empty() ? "" : ", ", html_escape(animation.href),
                             html_escape(animation.label));
      body += fmt::format("<tr><td><a href=\"{}\">{}</a></td><td class=\"list\">{}</td></tr>\n", html_escape(owner.page),
                          html_escape(owner_title(owner)), links);
    }
    body += "</table>\n";
  }
  return html_page("Animation curves", navigation, body);
}

}  // namespace animdex::reports
