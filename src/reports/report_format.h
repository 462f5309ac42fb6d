#pragma once
// Output formats of the reports and the rendering of a report made of titled sections.
#include <SQLiteCpp/Database.h>
#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "output/result_table.h"

namespace animdex::reports {

// A cell that stands for a list (the members of a reuse group, the tracks of a changed animation).
// The table, markdown and CSV outputs show the cell's text, the items joined; JSON shows `json`
// (an array: of strings, or of objects when the items have fields); HTML shows one item per line.
struct ListCell {
  std::vector<std::string> items;
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  std::string separator = "; ";  // between items in the text formats
};

// Items as a list of strings, JSON as the same strings; ", " between them in text (short items).
ListCell list_of(std::vector<std::string> items, std::string separator = ", ");

struct Section {
  std::string anchor;  // HTML id, e.g. "identical"
  std::string title;
  std::string note;    // a sentence under the title (may be empty)
  ResultTable table;
  std::string chart;   // HTML only: an SVG shown above the table (may be empty)
  // Per row of `table` (when it has lists): column index -> the list that cell stands for.
  std::vector<std::map<std::size_t, ListCell>> lists;

  // Appends a row; each named list replaces its column's cell by its items joined.
  void add_row(std::vector<Cell> cells, std::vector<std::pair<std::string, ListCell>> row_lists = {});
};

// table/markdown: titled sections; csv/tsv: one table with a leading `section` column; json: an
// object of arrays of row objects keyed by the sections' anchors (list cells as arrays); jsonl: one
// row object per line with its `section`; html: a self-contained page.
void write_sections(std::ostream& out, const std::string& title, const std::vector<Section>& sections,
                    OutputFormat format);

// "2" before "10": digit runs compare as numbers (animation keys such as 9, 10, 252/3).
bool natural_less(const std::string& a, const std::string& b);

// "IDLE (battle, no weapon)": an animation's name with the names of the motion-set states it is
// played in; the name alone when it has no state, the states alone when it has no name.
std::optional<std::string> name_with_states(const std::optional<std::string>& name,
                                            const std::vector<std::int64_t>& states);

// The motion-set states each animation of a database is played in (mset_slots.state: KH2's Player
// and Raw sets; an animation whose data several slots share has several), by `animations.id`, in
// state order. Their words come from the formats (slot_state_name).
std::map<std::int64_t, std::vector<std::int64_t>> slot_states_by_animation(SQLite::Database& db);

// Bone names from the reference tables, by the game a format's numbers belong to (ref_formats):
// GNT4's bone 3 and KH2's bone 3 are different bones, so a name is never looked up without the game.
class BoneNames {
 public:
  explicit BoneNames(SQLite::Database& db);
  // The community name, else the joint name; empty when the reference does not know the bone.
  std::optional<std::string> of_format(const std::string& format, std::int64_t bone_id) const;
  std::optional<std::string> of_game(const std::string& game, std::int64_t bone_id) const;

 private:
  std::map<std::string, std::string> game_of_format_;
  std::map<std::pair<std::string, std::int64_t>, std::string> names_;
};

// "bone 3 (hip)", or "bone 3" when the name is unknown.
std::string bone_label(std::int64_t bone_id, const std::optional<std::string>& name);

}  // namespace animdex::reports
