#include "reports/docs_report.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/content_hash.h"
#include "core/text.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "output/output_folder.h"
#include "reports/html.h"
#include "formats/registry.h"
#include "reports/report_format.h"
#include "reports/reuse_report.h"

namespace animdex::reports {

namespace {

namespace fs = std::filesystem;

ResultTable named(SQLite::Database& db, const char* name, const std::string& dump) {
  const auto* query = find_named_query(name);
  if (!query) throw std::runtime_error(fmt::format("named query {} is missing", name));
  return run_read_only_query(db, query->sql, bind_parameters(*query, {{"dump", dump}}));
}

std::string markdown(const ResultTable& table) {
  if (table.rows.empty()) return "None.\n";
  std::ostringstream out;
  write_table(out, table, OutputFormat::markdown);
  return out.str();
}

struct DumpInfo {
  std::string label, root;
  std::int64_t files = 0, errors = 0, animations = 0;
};

std::vector<DumpInfo> dumps_of(SQLite::Database& db, const std::optional<std::string>& only) {
  SQLite::Statement query(db, "SELECT d.label, d.root, d.file_count, d.error_count, "
                              "(SELECT COUNT(*) FROM animations a JOIN files f ON f.id = a.file_id WHERE f.dump_id = d.id) "
                              "FROM dumps d WHERE (:dump IS NULL OR d.label = :dump) ORDER BY d.label");
  if (only) query.bind(":dump", *only);
  else query.bind(":dump");
  std::vector<DumpInfo> dumps;
  while (query.executeStep())
    dumps.push_back({query.getColumn(0).getString(), query.getColumn(1).getString(), query.getColumn(2).getInt64(),
                     query.getColumn(3).getInt64(), query.getColumn(4).getInt64()});
  if (only && dumps.empty()) throw std::runtime_error(fmt::format("no dump labelled '{}' in the database", *only));
  return dumps;
}

std::size_t column_index(const ResultTable& table, const std::string& name) {
  const auto at = std::find(table.columns.begin(), table.columns.end(), name);
  if (at == table.columns.end()) throw std::runtime_error(fmt::format("a docs query lost its column {}", name));
  return static_cast<std::size_t>(at - table.columns.begin());
}

// The KH2 slot table with each state as "1 (battle, no weapon)" rather than a bare number.
ResultTable with_state_names(ResultTable slots) {
  if (slots.rows.empty()) return slots;
  const auto state = column_index(slots, "state");
  for (auto& row : slots.rows)
    if (const auto* number = std::get_if<std::int64_t>(&row[state]))
      if (const auto name = slot_state_name(*number)) row[state] = fmt::format("{} ({})", *number, *name);
  return slots;
}

// One row per KH2 motion set (nested sets apart) for the HTML page: a whole game has thousands of
// slots, most of them dummies, which the markdown page lists one by one.
ResultTable motion_set_summary(const ResultTable& slots) {
  ResultTable summary{{"file", "parent_slot", "slots", "animations", "dummies", "dummies_played_elsewhere",
                       "dummies_t_pose"},
                      {}};
  if (slots.rows.empty()) return summary;
  const auto file = column_index(slots, "file"), parent = column_index(slots, "parent_slot"),
             dummy = column_index(slots, "dummy"), resolved = column_index(slots, "resolved_slot");
  for (const auto& row : slots.rows) {
    if (summary.rows.empty() || summary.rows.back()[0] != row[file] || summary.rows.back()[1] != row[parent])
      summary.rows.push_back({row[file], row[parent], std::int64_t{0}, std::int64_t{0}, std::int64_t{0},
                              std::int64_t{0}, std::int64_t{0}});
    auto& line = summary.rows.back();
    const bool is_dummy = cell_text(row[dummy]) == "dummy";
    const auto* played = std::get_if<std::int64_t>(&row[resolved]);
    ++std::get<std::int64_t>(line[2]);
    ++std::get<std::int64_t>(line[is_dummy ? 4 : 3]);
    if (is_dummy && played) ++std::get<std::int64_t>(line[*played < 0 ? 6 : 5]);
  }
  return summary;
}

constexpr std::size_t kHeatmapRows = 150;

// Characters x bones: animation counts per cell. Columns are grouped by game (the query's family of
// bone numbers: kh2_mset and kh2_anb share a skeleton) and, within the column budget, each family
// keeps its most used bones (so a small family is not crowded out). Bones are named from the
// reference of their game.
std::string heatmap(SQLite::Database& db, const std::string& dump, std::size_t max_bones) {
  const ResultTable cells = named(db, "docs-bone-heatmap", dump);
  if (cells.rows.empty()) return "";
  std::map<std::string, std::size_t> rows;
  std::map<std::string, std::map<std::int64_t, double>> use_by_family;
  std::map<std::string, double> animations_of;
  for (const auto& row : cells.rows) {
    animations_of[cell_text(row[0])] += static_cast<double>(std::get<std::int64_t>(row[3]));
    use_by_family[cell_text(row[1])][std::get<std::int64_t>(row[2])] += 1;
  }
  // A DS archive makes every file an owner: the map keeps the owners with the largest sum over
  // their bones of the animations animating each, so it stays a page and not a scroll (the Bones
  // table has every owner).
  std::vector<std::pair<std::string, double>> owners(animations_of.begin(), animations_of.end());
  std::stable_sort(owners.begin(), owners.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  const std::size_t all_owners = owners.size();
  if (owners.size() > kHeatmapRows) owners.resize(kHeatmapRows);
  for (const auto& owner : owners) rows.emplace(owner.first, 0);
  const std::size_t quota = std::max<std::size_t>(8, max_bones / use_by_family.size());
  std::vector<std::pair<std::string, std::int64_t>> bones;
  std::size_t all_bones = 0;
  for (const auto& [family, uses] : use_by_family) {
    std::vector<std::pair<std::int64_t, double>> ranked(uses.begin(), uses.end());
    all_bones += ranked.size();
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (ranked.size() > quota) ranked.resize(quota);
    std::sort(ranked.begin(), ranked.end());
    for (const auto& [bone, count] : ranked) bones.emplace_back(family, bone);
  }
  const BoneNames names(db);
  Heatmap map{"heatmap-" + folder_name(dump),
              "Bone usage: animations per character (rows) and bone (columns, by game)", "animations", {}, {}, {}, {}};
  std::map<std::pair<std::string, std::int64_t>, std::size_t> column_of;
  for (const auto& bone : bones) {
    column_of[bone] = map.column_labels.size();
    map.column_labels.push_back(fmt::format("{} {}", bone.first, bone.second));
    map.column_titles.push_back(bone.first + " " + bone_label(bone.second, names.of_game(bone.first, bone.second)));
  }
  for (auto& [label, index] : rows) {
    index = map.row_labels.size();
    map.row_labels.push_back(label);
  }
  map.values.assign(map.row_labels.size(), std::vector<double>(map.column_labels.size(), 0));
  for (const auto& row : cells.rows) {
    const auto found = column_of.find({cell_text(row[1]), std::get<std::int64_t>(row[2])});
    if (found == column_of.end() || !rows.count(cell_text(row[0]))) continue;  // past the column or row budget
    map.values[rows[cell_text(row[0])]][found->second] += static_cast<double>(std::get<std::int64_t>(row[3]));
  }
  const std::string note =
      bones.size() < all_bones
          ? fmt::format("The {} most used of {} bones (at most {} per game); every bone is in the Bones table.",
                        bones.size(), all_bones, quota)
          : std::string("Every animated bone.");
  const std::string row_note =
      rows.size() < all_owners
          ? fmt::format(" The {} of {} characters and files with the most animated bones.", rows.size(), all_owners)
          : std::string();
  return "<p class=\"note\">" + html_escape(note + row_note + " Hover a row label for the whole name, a cell for its owner, "
                                              "bone and count.") +
         "</p>\n" + svg_heatmap(map);
}

}  // namespace

std::string folder_name(const std::string& label) {
  std::string name = label.empty() ? "_" : label;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  if (name == "." || name == "..") name = "_" + name;
  // A label that had to change gets a hash of itself, so "v1/ntsc" and "v1_ntsc" never share a folder.
  if (name != label) {
    ContentHasher hasher;
    hasher.add_text(label);
    name += "-" + hasher.hex().substr(0, 8);
  }
  return name;
}

namespace {

struct Page {
  std::string file, title, intro;
  ResultTable table;
  std::string html_intro;  // the HTML page's sentence when it shows `html_table` instead
  std::optional<ResultTable> html_table;
  std::string split_by;    // the column whose values get a page each when the page is too large
};

// The markdown pages of one dump, in order; the KH2 page only when the dump has motion sets.
std::vector<Page> pages_of(SQLite::Database& db, const std::string& label) {
  std::vector<Page> pages;
  pages.push_back({"characters.md", "Characters and their files",
                   "Each character (or file without one) and its animation files.",
                   named(db, "docs-characters", label), "", std::nullopt});
  pages.push_back({"animation-ids.md", "Animation IDs", "Animation ID -> purpose or name -> the characters that have it.",
                   named(db, "docs-animation-ids", label), "", std::nullopt});
  pages.push_back({"bones.md", "Bones", "Bone ID -> name -> the characters that animate it and how many animations do.",
                   named(db, "docs-bones", label), "", std::nullopt});
  auto slots = with_state_names(named(db, "docs-mset-slots", label));
  if (!slots.rows.empty()) {
    auto summary = motion_set_summary(slots);
    pages.push_back({"kh2-motion-sets.md", "KH2 motion sets",
                     "Every slot of every motion set: dummies and the slot the engine plays instead (-1: T-pose); "
                     "states as kh2-mset.md names them.",
                     std::move(slots),
                     "Each motion set in one row: its slots, those holding an animation, and its dummies, played as "
                     "another slot or as the T-pose; slot by slot in kh2-motion-sets.md.",
                     std::move(summary), "file"});
  }
  pages.push_back({"files.md", "Animation files", "Every file of the dump with its format, status and animation count.",
                   named(db, "docs-files", label), "", std::nullopt});
  return pages;
}

// A page's markdown files: the page, or, past `limit` bytes where it can be split, an index of its
// parts (with the HTML page's summary table) and a page per value of its `split_by` column in a
// folder named as the page (a whole game's KH2 slot table is 744 KB, a motion set's a few KB).
std::vector<std::pair<fs::path, std::string>> markdown_files(const std::string& label, const Page& page,
                                                             std::size_t limit) {
  const std::string heading = fmt::format("# {}: {}\n\n{}\n\n", markdown_escape(label), page.title, page.intro);
  std::string whole = heading + markdown(page.table);
  if (whole.size() <= limit || page.split_by.empty()) return {{page.file, std::move(whole)}};
  const auto column = column_index(page.table, page.split_by);
  std::map<std::string, ResultTable> parts;
  for (const auto& row : page.table.rows)
    parts.try_emplace(cell_text(row[column]), ResultTable{page.table.columns, {}}).first->second.rows.push_back(row);
  const fs::path folder = fs::path(page.file).stem();
  std::vector<std::pair<fs::path, std::string>> files{{page.file, ""}};
  std::string index = heading + fmt::format("The whole table would be a {} KB page, so each {} has a page of its own:\n\n",
                                            (whole.size() + 999) / 1000, page.split_by);
  for (const auto& [name, table] : parts) {
    const auto part = folder / (folder_name(name) + ".md");
    index += fmt::format("- [{}]({}) ({})\n", markdown_escape(name), part.generic_string(),
                         counted(static_cast<long long>(table.rows.size()), "row"));
    files.emplace_back(part, fmt::format("# {}: {}: {}\n\n{}\n\n{}", markdown_escape(label), page.title,
                                         markdown_escape(name), page.intro, markdown(table)));
  }
  if (page.html_table) index += "\n" + page.html_intro + "\n\n" + markdown(*page.html_table);
  files.front().second = std::move(index);
  return files;
}

std::string reuse_markdown(const std::string& label, const std::vector<Section>& reuse) {
  std::string text = fmt::format("# {}: reuse\n", markdown_escape(label));
  for (const auto& section : reuse)
    text += fmt::format("\n## {}\n\n{}\n\n{}", section.title, section.note, markdown(section.table));
  return text;
}

std::string html_block(const std::string& title, const std::string& intro, const ResultTable& table,
                       const std::vector<std::map<std::size_t, ListCell>>& lists = {}) {
  return "<h3>" + html_escape(title) + "</h3>\n<p class=\"note\">" + html_escape(intro) + "</p>\n" +
         (table.rows.empty() ? "<p class=\"note\">None.</p>\n" : report_table_html(table, lists));
}

// A whole game shares hundreds of tracks between the same few animations; the HTML page shows the
// most widely shared rows of each reuse table (they come sorted so) and keeps it under 1 MB, the
// markdown page has them all.
constexpr std::size_t kHtmlReuseRows = 250;

Section first_rows(const Section& section, std::size_t rows, const std::string& full_page) {
  if (section.table.rows.size() <= rows) return section;
  Section shown = section;
  shown.note += fmt::format(" The first {} of {} rows; all of them are in {}.", rows, section.table.rows.size(), full_page);
  shown.table.rows.resize(rows);
  if (shown.lists.size() > rows) shown.lists.resize(rows);
  return shown;
}

// A DS archive's bone 0 has a hundred owners, each a long member path: the HTML page names the
// first few of a list and how many more there are (the markdown page lists them all).
constexpr std::size_t kHtmlListedOwners = 12;

ResultTable with_short_owner_lists(ResultTable table, const std::string& full_page) {
  const auto column = std::find(table.columns.begin(), table.columns.end(), "characters");
  if (column == table.columns.end()) return table;
  const auto index = static_cast<std::size_t>(column - table.columns.begin());
  for (auto& row : table.rows) {
    const auto* text = std::get_if<std::string>(&row[index]);
    if (!text) continue;
    std::vector<std::size_t> separators;  // the query joins the owners with ", "
    for (auto at = text->find(", "); at != std::string::npos; at = text->find(", ", at + 2)) separators.push_back(at);
    const std::size_t total = separators.size() + 1;
    if (total <= kHtmlListedOwners + 3) continue;  // "and 2 more" would hide what fits
    const std::size_t at = separators[kHtmlListedOwners - 1] + 2;
    row[index] = fmt::format("{} ... and {} more (all in {})", text->substr(0, at - 2), total - kHtmlListedOwners,
                             full_page);
  }
  return table;
}

// A dump's part of the HTML page: its counts, the heatmap, the reuse chart, then every table.
std::string dump_html(SQLite::Database& db, const DumpInfo& dump, const std::string& anchor,
                      const std::vector<Page>& pages, const std::vector<Section>& reuse, const DocsOptions& options) {
  std::string html = fmt::format("<h2 id=\"{}\">Dump {}</h2>\n<p class=\"note\">{} files ({} errors), {} animations{}</p>\n",
                                 html_escape(anchor), html_escape(dump.label), dump.files, dump.errors, dump.animations,
                                 options.show_roots ? "; indexed from " + html_escape(dump.root) : "");
  html += heatmap(db, dump.label, options.heatmap_bones);
  html += reuse.front().chart;
  for (const auto& page : pages)
    html += page.html_table ? html_block(page.title, page.html_intro, *page.html_table)
                            : html_block(page.title, page.intro, with_short_owner_lists(page.table, page.file));
  for (const auto& section : reuse) {
    const Section shown = first_rows(section, kHtmlReuseRows, "reuse.md");
    html += html_block(shown.title, shown.note, shown.table, shown.lists);
  }
  return html;
}

std::string index_header(bool show_roots) {
  return std::string("# Animation documentation\n\nGenerated by animdex from the indexed dumps; edit the source data, "
                     "not these files.\n\n") +
         (show_roots ? "| dump | root | files | errors | animations | pages |\n|---|---|---:|---:|---:|---|\n"
                     : "| dump | files | errors | animations | pages |\n|---|---:|---:|---:|---|\n");
}

std::string index_row(const DumpInfo& dump, const std::string& links, bool show_roots) {
  std::string roots = dump.root;  // several roots are stored one per line
  std::replace(roots.begin(), roots.end(), '\n', ';');
  return fmt::format("| {} |{} {} | {} | {} | {} |\n", markdown_escape(dump.label),
                     show_roots ? " " + markdown_escape(roots) + " |" : "", dump.files, dump.errors, dump.animations,
                     links);
}

}  // namespace

DocsSummary write_docs(SQLite::Database& db, const DocsOptions& options) {
  const auto dumps = dumps_of(db, options.dump);
  DocsSummary summary;
  OutputFolder out(options.out, "report docs", options.force);
  const auto emit = [&](const fs::path& relative, const std::string& text) {
    out.write(relative, text);
    summary.files.push_back(relative);
  };
  std::string index = index_header(options.show_roots);
  std::string html_body = "<p class=\"note\">The curves of every animation, a page per character: <a "
                          "href=\"index.html\">index.html</a>.</p>\n";
  std::vector<std::pair<std::string, DumpCurves>> curves;
  CurvePagesOptions curve_options;
  curve_options.load = options.load_curves;
  curve_options.player = options.player;
  curve_options.player_scripts = options.player_scripts;
  std::vector<std::pair<std::string, std::string>> navigation;
  ReuseOptions reuse_options;
  for (const auto& dump : dumps) {
    const std::string folder = folder_name(dump.label);
    const auto pages = pages_of(db, dump.label);
    reuse_options.dump = dump.label;
    const auto reuse = reuse_sections(build_reuse_report(db, reuse_options), reuse_options, true);
    std::string links;
    for (const auto& page : pages) {
      for (const auto& [file, text] : markdown_files(dump.label, page, options.markdown_page_limit))
        emit(fs::path(folder) / file, text);
      links += fmt::format("[{}]({}/{}) ", page.title, folder, page.file);
    }
    emit(fs::path(folder) / "reuse.md", reuse_markdown(dump.label, reuse));
    links += fmt::format("[Reuse]({}/reuse.md)", folder);
    index += index_row(dump, links, options.show_roots);
    const std::string anchor = "dump-" + folder;
    navigation.emplace_back(anchor, dump.label);
    html_body += dump_html(db, dump, anchor, pages, reuse, options);
    curves.emplace_back(dump.label, write_dump_curves(db, dump.label, folder, curve_options, emit));
  }
  index += "\nThe curves of every animation, a page per character: [index.html](index.html).\n";
  emit("README.md", index);
  summary.html = "animdex-docs.html";
  emit(summary.html, html_page("Animation documentation", navigation, html_body));
  summary.curves = "index.html";
  emit(summary.curves, curves_index_html(curves));
  out.finish();
  return summary;
}

}  // namespace animdex::reports
