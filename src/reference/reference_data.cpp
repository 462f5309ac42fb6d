#include "reference/reference_data.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <stdexcept>

#include "core/text.h"
#include "core/embedded.h"

namespace animdex {

namespace {

using Row = std::vector<std::string>;

std::vector<std::string> split(std::string_view line, char separator) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const auto end = line.find(separator, start);
    fields.emplace_back(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return fields;
}

// Rows of a TSV with a header line; '#' lines and blank lines are comments.
// Each row is returned with the fields named in `columns`, in that order; `line_numbers`, when
// given, gets each row's line number in the file.
std::vector<Row> read_tsv(std::string_view name, std::string_view text, const std::vector<std::string>& columns,
                          std::vector<std::size_t>* line_numbers = nullptr) {
  std::vector<Row> rows;
  std::vector<std::size_t> positions;
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    auto fields = split(line, '\t');
    if (positions.empty()) {
      for (const auto& column : columns) {
        auto found = std::find(fields.begin(), fields.end(), column);
        if (found == fields.end())
          throw std::runtime_error(fmt::format("{}:{}: header has no column '{}'", name, line_number, column));
        positions.push_back(static_cast<std::size_t>(found - fields.begin()));
      }
      continue;
    }
    Row row;
    for (auto position : positions) row.push_back(position < fields.size() ? fields[position] : std::string());
    rows.push_back(std::move(row));
    if (line_numbers) line_numbers->push_back(line_number);
  }
  return rows;
}

std::int64_t require_integer(std::string_view name, std::string_view text) {
  auto value = parse_integer(text);
  if (!value) throw std::runtime_error(fmt::format("{}: '{}' is not an integer", name, text));
  return *value;
}

std::string_view embedded_or_throw(std::string_view path) {
  auto content = embedded_file(path);
  if (!content) throw std::runtime_error(fmt::format("embedded file {} is missing", path));
  return *content;
}

}  // namespace

std::optional<std::int64_t> parse_integer(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return negative ? -value : value;
}

ReferenceData ReferenceData::parse(std::string_view bones_tsv, std::string_view purposes_tsv,
                                   std::string_view characters_tsv, std::string_view motion_names_tsv,
                                   const std::vector<NamedTsv>& more_character_tsvs) {
  ReferenceData data;
  for (auto& row : read_tsv("bone_names.tsv", bones_tsv, {"game", "bone_id", "name", "alt_name", "source"})) {
    BoneName bone{row[0], require_integer("bone_names.tsv", row[1]), row[2], row[3], row[4]};
    data.bone_index_[{bone.game, bone.bone_id}] = data.bones_.size();
    data.bones_.push_back(std::move(bone));
  }
  for (auto& row : read_tsv("animation_purposes.tsv", purposes_tsv, {"game", "motion_id", "purpose", "source"})) {
    AnimationPurpose purpose{row[0], require_integer("animation_purposes.tsv", row[1]), row[2], row[3]};
    data.purpose_index_[{purpose.game, purpose.motion_id}] = data.purposes_.size();
    data.purposes_.push_back(std::move(purpose));
  }
  // Every character table fills the same list (ref_characters), so (game, code) is unique across them.
  std::vector<NamedTsv> character_tables{{"characters.tsv", characters_tsv}};
  character_tables.insert(character_tables.end(), more_character_tsvs.begin(), more_character_tsvs.end());
  std::map<std::pair<std::string, std::string>, std::string, std::less<>> first_seen;  // -> "file:line"
  for (const auto& table : character_tables) {
    std::vector<std::size_t> lines;
    auto rows = read_tsv(table.name, table.text, {"game", "code", "internal_id", "name", "source"}, &lines);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      auto& row = rows[i];
      const auto where = fmt::format("{}:{}", table.name, lines[i]);
      if (row[0].empty() || row[1].empty() || row[3].empty())
        throw std::runtime_error(fmt::format("{}: a character needs a game, a code and a name", where));
      const auto [seen, added] = first_seen.try_emplace({row[0], row[1]}, where);
      if (!added)
        throw std::runtime_error(fmt::format("{}: character ({}, {}) is listed twice (first at {})", where, row[0],
                                             row[1], seen->second));
      std::optional<std::int64_t> internal_id;
      if (!row[2].empty()) internal_id = require_integer(table.name, row[2]);
      data.character_index_[{row[0], row[1]}] = data.characters_.size();
      data.characters_.push_back(CharacterName{row[0], row[1], internal_id, row[3], row[4]});
    }
  }
  if (!motion_names_tsv.empty())
    for (auto& row : read_tsv("motion_names.tsv", motion_names_tsv,
                              {"game", "numbering", "motion_id", "name", "source"})) {
      MotionName name{row[0], row[1], require_integer("motion_names.tsv", row[2]), row[3], row[4]};
      data.motion_name_index_[{name.game, name.numbering, name.motion_id}] = data.motion_names_.size();
      data.motion_names_.push_back(std::move(name));
    }
  return data;
}

const ReferenceData& ReferenceData::embedded() {
  static const ReferenceData data = parse(embedded_or_throw("schema/reference/bone_names.tsv"),
                                          embedded_or_throw("schema/reference/animation_purposes.tsv"),
                                          embedded_or_throw("schema/reference/characters.tsv"),
                                          embedded_or_throw("schema/reference/motion_names.tsv"),
                                          {{"kh2_objects.tsv", embedded_or_throw("schema/reference/kh2_objects.tsv")}});
  return data;
}

std::optional<std::string> ReferenceData::character_name(std::string_view game, std::string_view code) const {
  auto found = character_index_.find(std::pair<std::string, std::string>{std::string(game), std::string(code)});
  if (found == character_index_.end()) return std::nullopt;
  return characters_[found->second].name;
}

std::optional<std::string> ReferenceData::character_code_ignoring_case(std::string_view game,
                                                                       std::string_view code) const {
  std::optional<std::string> found;
  for (const auto& character : characters_) {
    if (character.game != game || !equal_ignoring_case(character.code, code)) continue;
    if (found) return std::nullopt;  // two codes differ only in case: neither is guessed
    found = character.code;
  }
  return found;
}

std::optional<std::string> ReferenceData::bone_name(std::string_view game, std::int64_t bone_id) const {
  auto found = bone_index_.find(std::pair<std::string, std::int64_t>{std::string(game), bone_id});
  if (found == bone_index_.end()) return std::nullopt;
  const auto& bone = bones_[found->second];
  if (!bone.name.empty()) return bone.name;
  if (!bone.alt_name.empty()) return bone.alt_name;
  return std::nullopt;
}

std::optional<std::string> ReferenceData::purpose(std::string_view game, std::int64_t motion_id) const {
  auto found = purpose_index_.find(std::pair<std::string, std::int64_t>{std::string(game), motion_id});
  if (found == purpose_index_.end()) return std::nullopt;
  return purposes_[found->second].purpose;
}

std::optional<std::string> ReferenceData::motion_name(std::string_view game, std::string_view numbering,
                                                      std::int64_t motion_id) const {
  auto found = motion_name_index_.find(std::tuple<std::string, std::string, std::int64_t>{
      std::string(game), std::string(numbering), motion_id});
  if (found == motion_name_index_.end()) return std::nullopt;
  return motion_names_[found->second].name;
}

}  // namespace animdex
