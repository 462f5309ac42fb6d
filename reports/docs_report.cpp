#include "reports/docs_report.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/content_hash.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "output/output_file.h"
#include "reports/html.h"
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

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  write_file_checked(path, text);
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

// Characters x bones: animation counts per cell. Columns are grouped by game (the query's family of
// bone numbers: kh2_mset and kh2_anb share a skeleton) and, within the column budget, each family
// keeps its most used bones (so a small family is not crowded out).
std::string heatmap(SQLite::Database& db, const std::string& dump, std::size_t max_bones) {
  const ResultTable cells = named(db, "docs-bone-heatmap", dump);
  if (cells.rows.empty()) return "";
  std::map<std::string, std::size_t> rows;
  std::map<std::string, std::map<std::int64_t, double>> use_by_family;
  for (const auto& row : cells.rows) {
    rows.emplace(cell_text(row[0]), 0);
    use_by_family[cell_text(row[1])][std::get<std::int64_t>(row[2])] += 1;
  }
  const std::size_t quota = std::max<std::size_t>(8, max_bones / use_by_family.size());
  std::vector<std::pair<std::string, std::int64_t>> bones;
  for (const auto& [family, uses] : use_by_family) {
    std::vector<std::pair<std::int64_t, double>> ranked(uses.begin(), uses.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (ranked.size() > quota) ranked.resize(quota);
    std::sort(ranked.begin(), ranked.end());
    for (const auto& [bone, count] : ranked) bones.emplace_back(family, bone);
  }
  std::map<std::pair<std::string, std::int64_t>, std::size_t> column_of;
  std::vector<std::string> columns;
  for (const auto& bone : bones) {
    column_of[bone] = columns.size();
    columns.push_back(fmt::format("{} {}", bone.first, bone.second));
  }
  std::vector<std::string> row_labels;
  for (auto& [label, index] : rows) {
    index = row_labels.size();
    row_labels.push_back(label.size() > 22 ? "..." + label.substr(label.size() - 19) : label);
  }
  std::vector<std::vector<double>> values(row_labels.size(), std::vector<double>(columns.size(), 0));
  for (const auto& row : cells.rows) {
    const auto found = column_of.find({cell_text(row[1]), std::get<std::int64_t>(row[2])});
    if (found == column_of.end()) continue;
    values[rows[cell_text(row[0])]][found->second] += static_cast<double>(std::get<std::int64_t>(row[3]));
  }
  return svg_heatmap("heatmap-" + folder_name(dump),
                     "Bone usage: animations per character (rows) and bone (columns, by format family)", row_labels,
                     columns, values);
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

DocsSummary write_docs(SQLite::Database& db, const DocsOptions& options) {
  const auto dumps = dumps_of(db, options.dump);
  DocsSummary summary;
  const auto emit = [&](const fs::path& relative, const std::string& text) {
    write_file(options.out / relative, text);
    summary.files.push_back(relative);
  };
  std::string index = "# Animation documentation\n\nGenerated by animdex from the indexed dumps; edit the "
                      "source data, not these files.\n\n| dump | root | files | errors | animations | pages |\n"
                      "|---|---|---:|---:|---:|---|\n";
  std::string html_body;
  std::vector<std::pair<std::string, std::string>> navigation;
  ReuseOptions reuse_options;
  for (const auto& dump : dumps) {
    const std::string folder = folder_name(dump.label);
    const auto characters = named(db, "docs-characters", dump.label);
    const auto ids = named(db, "docs-animation-ids", dump.label);
    const auto bones = named(db, "docs-bones", dump.label);
    const auto slots = named(db, "docs-mset-slots", dump.label);
    const auto files = named(db, "docs-files", dump.label);
    reuse_options.dump = dump.label;
    const auto reuse = reuse_sections(build_reuse_report(db, reuse_options), reuse_options, true);

    struct Page {
      std::string file, title, intro;
      const ResultTable* table;
    };
    const std::vector<Page> pages = {
        {"characters.md", "Characters and their files", "Each character (or file without one) and its animation files.",
         &characters},
        {"animation-ids.md", "Animation IDs", "Animation ID -> purpose or name -> the characters that have it.", &ids},
        {"bones.md", "Bones", "Bone ID -> name -> the characters that animate it and how many animations do.", &bones},
        {"kh2-motion-sets.md", "KH2 motion sets",
         "Every slot of every motion set: dummies and the slot the engine plays instead (-1: T-pose).", &slots},
        {"files.md", "Animation files", "Every file of the dump with its format, status and animation count.", &files},
    };
    std::string links;
    for (const auto& page : pages) {
      if (page.file == "kh2-motion-sets.md" && page.table->rows.empty()) continue;
      emit(fs::path(folder) / page.file, fmt::format("# {}: {}\n\n{}\n\n{}", markdown_escape(dump.label), page.title,
                                                     page.intro, markdown(*page.table)));
      links += fmt::format("[{}]({}/{}) ", page.title, folder, page.file);
    }
    std::string reuse_markdown = fmt::format("# {}: reuse\n", markdown_escape(dump.label));
    for (const auto& section : reuse)
      reuse_markdown += fmt::format("\n## {}\n\n{}\n\n{}", section.title, section.note, markdown(section.table));
    emit(fs::path(folder) / "reuse.md", reuse_markdown);
    links += fmt::format("[Reuse]({}/reuse.md)", folder);
    std::string roots = dump.root;  // several roots are stored one per line
    std::replace(roots.begin(), roots.end(), '\n', ';');
    index += fmt::format("| {} | {} | {} | {} | {} | {} |\n", markdown_escape(dump.label), markdown_escape(roots),
                         dump.files, dump.errors, dump.animations, links);

    const std::string anchor = "dump-" + folder;
    navigation.emplace_back(anchor, dump.label);
    html_body += fmt::format("<h2 id=\"{}\">Dump {}</h2>\n<p class=\"note\">{} files ({} errors), {} animations; "
                             "root {}</p>\n",
                             html_escape(anchor), html_escape(dump.label), dump.files, dump.errors, dump.animations,
                             html_escape(dump.root));
    html_body += heatmap(db, dump.label, options.heatmap_bones);
    html_body += reuse.front().chart;
    for (const auto& page : pages) {
      if (page.file == "kh2-motion-sets.md" && page.table->rows.empty()) continue;
      html_body += "<h3>" + html_escape(page.title) + "</h3>\n<p class=\"note\">" + html_escape(page.intro) + "</p>\n";
      html_body += page.table->rows.empty() ? "<p class=\"note\">None.</p>\n" : html_table(*page.table);
    }
    for (const auto& section : reuse) {
      html_body += "<h3>" + html_escape(section.title) + "</h3>\n<p class=\"note\">" + html_escape(section.note) + "</p>\n";
      html_body += section.table.rows.empty() ? "<p class=\"note\">None.</p>\n" : html_table(section.table);
    }
  }
  emit("README.md", index);
  summary.html = "animdex-docs.html";
  emit(summary.html, html_page("Animation documentation", navigation, html_body));
  return summary;
}

}  // namespace animdex::reports
