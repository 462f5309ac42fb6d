#include "reports/report_format.h"

#include "formats/registry.h"

#include <SQLiteCpp/Statement.h>
#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "output/json_rows.h"
#include "output/json_text.h"
#include "reports/html.h"

namespace animdex::reports {

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool digit_a = std::isdigit(static_cast<unsigned char>(a[i])), digit_b = std::isdigit(static_cast<unsigned char>(b[j]));
    if (digit_a && digit_b) {
      std::size_t end_a = i, end_b = j;
      while (end_a < a.size() && std::isdigit(static_cast<unsigned char>(a[end_a]))) ++end_a;
      while (end_b < b.size() && std::isdigit(static_cast<unsigned char>(b[end_b]))) ++end_b;
      const std::string run_a = a.substr(i, end_a - i), run_b = b.substr(j, end_b - j);
      const std::string trimmed_a = run_a.substr(std::min(run_a.find_first_not_of('0'), run_a.size()));
      const std::string trimmed_b = run_b.substr(std::min(run_b.find_first_not_of('0'), run_b.size()));
      if (trimmed_a.size() != trimmed_b.size()) return trimmed_a.size() < trimmed_b.size();
      if (trimmed_a != trimmed_b) return trimmed_a < trimmed_b;
      i = end_a, j = end_b;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i, ++j;
  }
  return a.size() - i < b.size() - j;
}


ListCell list_of(std::vector<std::string> items, std::string separator) {
  ListCell list;
  list.separator = std::move(separator);
  for (const auto& item : items) list.json.push_back(item);
  list.items = std::move(items);
  return list;
}

void Section::add_row(std::vector<Cell> cells, std::vector<std::pair<std::string, ListCell>> row_lists) {
  std::map<std::size_t, ListCell> by_column;
  for (auto& [column, list] : row_lists) {
    const auto at = std::find(table.columns.begin(), table.columns.end(), column);
    // A list for a column the table does not have is a programming error, not data to drop.
    if (at == table.columns.end()) throw std::logic_error("section " + anchor + " has no column " + column);
    const auto index = static_cast<std::size_t>(at - table.columns.begin());
    std::string text;
    for (const auto& item : list.items) text += (text.empty() ? "" : list.separator) + item;
    cells.at(index) = text;
    by_column[index] = std::move(list);
  }
  table.rows.push_back(std::move(cells));
  if (!by_column.empty() || !lists.empty()) {
    lists.resize(table.rows.size() - 1);
    lists.push_back(std::move(by_column));
  }
}

namespace {

const std::map<std::size_t, ListCell>* lists_of_row(const Section& section, std::size_t row) {
  return row < section.lists.size() ? &section.lists[row] : nullptr;
}

nlohmann::ordered_json section_json(const Section& section) {
  auto rows = json_rows(section.table);
  for (std::size_t r = 0; r < section.table.rows.size(); ++r)
    if (const auto* lists = lists_of_row(section, r))
      for (const auto& [column, list] : *lists) rows[r][section.table.columns[column]] = list.json;
  return rows;
}

void write_html(std::ostream& out, const std::string& title, const std::vector<Section>& sections) {
  std::vector<std::pair<std::string, std::string>> navigation;
  std::string body;
  for (const auto& section : sections) {
    navigation.emplace_back(section.anchor, section.title);
    body += "<h2 id=\"" + html_escape(section.anchor) + "\">" + html_escape(section.title) + "</h2>\n";
    if (!section.note.empty()) body += "<p class=\"note\">" + html_escape(section.note) + "</p>\n";
    body += section.chart;
    body += section.table.rows.empty() ? "<p class=\"note\">None.</p>\n" : report_table_html(section.table, section.lists);
  }
  out << html_page(title, navigation, body);
}

// CSV or TSV: one table, the sections' rows under a leading `section` column.
void write_separated(std::ostream& out, const std::vector<Section>& sections, OutputFormat format) {
  ResultTable all;
  all.columns.push_back("section");
  // Sections have different columns: the CSV carries the union, in first-seen order.
  for (const auto& section : sections)
    for (const auto& column : section.table.columns)
      if (std::find(all.columns.begin(), all.columns.end(), column) == all.columns.end()) all.columns.push_back(column);
  for (const auto& section : sections)
    for (const auto& row : section.table.rows) {
      std::vector<Cell> line(all.columns.size());
      line[0] = section.anchor;
      for (std::size_t c = 0; c < section.table.columns.size(); ++c) {
        const auto at = std::find(all.columns.begin(), all.columns.end(), section.table.columns[c]);
        line[static_cast<std::size_t>(at - all.columns.begin())] = row[c];
      }
      all.rows.push_back(std::move(line));
    }
  write_table(out, all, format);
}

// JSON Lines: one object per row, its section first.
void write_json_lines(std::ostream& out, const std::vector<Section>& sections) {
  for (const auto& section : sections)
    for (const auto& row : section_json(section)) {
      nlohmann::ordered_json line{{"section", section.anchor}};
      for (const auto& [column, value] : row.items()) line[column] = value;
      out << json_text(line, -1) << '\n';
    }
}

void write_text(std::ostream& out, const std::string& title, const std::vector<Section>& sections, bool markdown) {
  out << (markdown ? "# " + markdown_escape(title) : terminal_safe(title)) << "\n";
  for (const auto& section : sections) {
    out << "\n" << (markdown ? "## " : "== ") << section.title << "\n\n";
    if (!section.note.empty()) out << section.note << "\n\n";
    if (section.table.rows.empty()) out << "None.\n";
    else write_table(out, section.table, markdown ? OutputFormat::markdown : OutputFormat::table);
  }
}

}  // namespace

void write_sections(std::ostream& out, const std::string& title, const std::vector<Section>& sections,
                    OutputFormat format) {
  switch (format) {
    case OutputFormat::html: write_html(out, title, sections); return;
    case OutputFormat::csv:
    case OutputFormat::tsv: write_separated(out, sections, format); return;
    case OutputFormat::jsonl: write_json_lines(out, sections); return;
    case OutputFormat::json: {
      nlohmann::ordered_json json = nlohmann::ordered_json::object();
      for (const auto& section : sections) json[section.anchor] = section_json(section);
      out << json_text(json) << '\n';
      return;
    }
    case OutputFormat::markdown: write_text(out, title, sections, true); return;
    case OutputFormat::table: write_text(out, title, sections, false); return;
  }
  // A format added to OutputFormat but not here must not print nothing.
  throw std::logic_error("reports cannot be written in this output format");
}

std::optional<std::string> name_with_states(const std::optional<std::string>& name,
                                            const std::vector<std::int64_t>& states) {
  std::string state_text;
  for (const auto state : states) {
    const auto state_name = slot_state_name(state);
    state_text += (state_text.empty() ? "" : " / ") + (state_name ? std::string(*state_name) : "state " + std::to_string(state));
  }
  if (state_text.empty()) return name;
  return name ? *name + " (" + state_text + ")" : "(" + state_text + ")";
}

std::map<std::int64_t, std::vector<std::int64_t>> slot_states_by_animation(SQLite::Database& db) {
  SQLite::Statement query(db, "SELECT DISTINCT animation_id, state FROM mset_slots "
                              "WHERE animation_id IS NOT NULL AND state IS NOT NULL ORDER BY animation_id, state");
  std::map<std::int64_t, std::vector<std::int64_t>> states;
  while (query.executeStep()) states[query.getColumn(0).getInt64()].push_back(query.getColumn(1).getInt64());
  return states;
}

BoneNames::BoneNames(SQLite::Database& db) {
  SQLite::Statement formats(db, "SELECT format, game FROM ref_formats WHERE game IS NOT NULL");
  while (formats.executeStep()) game_of_format_[formats.getColumn(0).getString()] = formats.getColumn(1).getString();
  SQLite::Statement names(db, "SELECT game, bone_id, COALESCE(name, alt_name) FROM ref_bone_names "
                              "WHERE COALESCE(name, alt_name) IS NOT NULL");
  while (names.executeStep())
    names_[{names.getColumn(0).getString(), names.getColumn(1).getInt64()}] = names.getColumn(2).getString();
}

std::optional<std::string> BoneNames::of_format(const std::string& format, std::int64_t bone_id) const {
  const auto game = game_of_format_.find(format);
  if (game == game_of_format_.end()) return std::nullopt;  // a format without reference data
  return of_game(game->second, bone_id);
}

std::optional<std::string> BoneNames::of_game(const std::string& game, std::int64_t bone_id) const {
  const auto found = names_.find({game, bone_id});
  return found == names_.end() ? std::nullopt : std::optional<std::string>(found->second);
}

std::string bone_label(std::int64_t bone_id, const std::optional<std::string>& name) {
  return name ? fmt::format("bone {} ({})", bone_id, *name) : fmt::format("bone {}", bone_id);
}

}  // namespace animdex::reports
