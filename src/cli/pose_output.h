#pragma once
// How `pose` prints poses (also `pose --world`): tables with one column per vector component
// (`T.x`, `R.m01`), JSON with vectors as arrays and what was evaluated beside the rows.
#include <filesystem>
#include <ostream>
#include <string_view>
#include <vector>

#include "formats/capabilities.h"
#include "output/result_table.h"

namespace animdex {

// JSON keeps vectors as arrays and puts what was evaluated beside the rows: one object for one
// time, an array for several, one object a line for jsonl. The other formats show one table.
void write_poses(std::ostream& out, const std::vector<Pose>& poses, const std::filesystem::path& path,
                 std::string_view format_id, OutputFormat format, bool header);

}  // namespace animdex
