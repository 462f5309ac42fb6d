#pragma once
// Output formats of the reports and the rendering of a report made of titled sections.
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "output/result_table.h"

namespace animdex::reports {


struct Section {
  std::string anchor;  // HTML id, e.g. "identical"
  std::string title;
  std::string note;    // a sentence under the title (may be empty)
  ResultTable table;
  std::string chart;   // HTML only: an SVG shown above the table (may be empty)
};

// table/markdown: titled sections; csv: one table with a leading `section` column; json: an object
// of arrays of row objects keyed by the sections' anchors; html: a self-contained page.
void write_sections(std::ostream& out, const std::string& title, const std::vector<Section>& sections,
                    OutputFormat format);

// "2" before "10": digit runs compare as numbers (animation keys such as 9, 10, 252/3).
bool natural_less(const std::string& a, const std::string& b);

}  // namespace animdex::reports
