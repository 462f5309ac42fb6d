#include "cli/pose_output.h"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/number_text.h"
#include "output/json_rows.h"
#include "output/json_text.h"

namespace animdex {

namespace {

// `about` values (time, frame) are arithmetic on the request: computed.
Cell pose_cell(const PoseValue& value, Precision precision = Precision::computed) {
  if (const auto* number = std::get_if<std::int64_t>(&value)) return *number;
  if (const auto* real = std::get_if<double>(&value)) return shown_as(*real, precision);
  if (const auto* text = std::get_if<std::string>(&value)) return *text;
  return Cell();
}

// A vector component; NaN is a value the file cannot supply (a bind-pose channel): null, empty.
Cell component_cell(double number, Precision precision) {
  return std::isnan(number) ? Cell() : Cell(shown_as(number, precision));
}

nlohmann::ordered_json pose_json(const PoseValue& value, Precision precision = Precision::computed) {
  if (const auto* numbers = std::get_if<std::vector<double>>(&value)) {
    auto array = nlohmann::ordered_json::array();
    for (const double number : *numbers) array.push_back(json_cell(component_cell(number, precision)));
    return array;
  }
  if (const auto* texts = std::get_if<std::vector<std::string>>(&value)) return nlohmann::ordered_json(*texts);
  return json_cell(pose_cell(value, precision));
}

// The name of component `index` of a vector of `size` numbers: x y z w, or a matrix's row and
// column (R.m00 .. R.m22), or the position.
std::string component_name(std::size_t index, std::size_t size) {
  if (size <= 4) return std::string(1, "xyzw"[index]);
  if (size == 9 || size == 16) {
    const std::size_t side = size == 9 ? 3 : 4;
    return fmt::format("m{}{}", index / side, index % side);
  }
  return std::to_string(index);
}

std::size_t vector_size(const PoseValue& value) {
  if (const auto* numbers = std::get_if<std::vector<double>>(&value)) return numbers->size();
  if (const auto* texts = std::get_if<std::vector<std::string>>(&value)) return texts->size();
  return 0;
}

Cell component_of(const PoseValue& value, std::size_t index, Precision precision) {
  if (const auto* numbers = std::get_if<std::vector<double>>(&value))
    return index < numbers->size() ? component_cell((*numbers)[index], precision) : Cell();
  if (const auto* texts = std::get_if<std::vector<std::string>>(&value))
    return index < texts->size() ? Cell((*texts)[index]) : Cell();
  return Cell();
}

// Tables, CSV and markdown get one column per component (`T.x`, `R.m01`), so a spreadsheet reads
// them as numbers; a row without the vector (a node left in its bind pose) has empty cells there.
// Several poses share one table, each row led by its time.
ResultTable pose_table(const std::vector<Pose>& poses) {
  const auto& columns = poses.front().columns;
  std::vector<std::size_t> sizes(columns.size(), 0);
  for (std::size_t c = 0; c < poses.front().vector_sizes.size() && c < sizes.size(); ++c)
    sizes[c] = poses.front().vector_sizes[c];
  for (const auto& pose : poses)
    for (const auto& row : pose.rows)
      for (std::size_t c = 0; c < row.size() && c < sizes.size(); ++c) sizes[c] = std::max(sizes[c], vector_size(row[c]));
  ResultTable table{{}, {}};
  const bool timed = poses.size() > 1;
  if (timed) table.columns.push_back("time");
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (sizes[c] == 0) table.columns.push_back(columns[c]);
    for (std::size_t i = 0; i < sizes[c]; ++i) table.columns.push_back(columns[c] + "." + component_name(i, sizes[c]));
  }
  for (const auto& pose : poses) {
    Cell time;
    for (const auto& [name, value] : pose.about)
      if (name == "time") time = pose_cell(value);
    for (const auto& row : pose.rows) {
      auto& cells = table.rows.emplace_back();
      if (timed) cells.push_back(time);
      for (std::size_t c = 0; c < row.size() && c < sizes.size(); ++c) {
        if (sizes[c] == 0) cells.push_back(pose_cell(row[c], pose.values));
        for (std::size_t i = 0; i < sizes[c]; ++i) cells.push_back(component_of(row[c], i, pose.values));
      }
    }
  }
  return table;
}

nlohmann::ordered_json pose_object(const Pose& pose, const std::filesystem::path& path, std::string_view format) {
  nlohmann::ordered_json json;
  json["file"] = path.string();
  json["format"] = std::string(format);
  for (const auto& [name, value] : pose.about) json[name] = pose_json(value);
  auto& rows = json[pose.rows_name] = nlohmann::ordered_json::array();
  for (const auto& row : pose.rows) {
    nlohmann::ordered_json item;
    for (std::size_t c = 0; c < pose.columns.size() && c < row.size(); ++c) item[pose.columns[c]] = pose_json(row[c], pose.values);
    rows.push_back(std::move(item));
  }
  return json;
}

}  // namespace

void write_poses(std::ostream& out, const std::vector<Pose>& poses, const std::filesystem::path& path,
                 std::string_view format_id, OutputFormat format, bool header) {
  if (format == OutputFormat::jsonl) {
    for (const auto& pose : poses) out << json_text(pose_object(pose, path, format_id), -1) << '\n';
    return;
  }
  if (format == OutputFormat::json) {
    if (poses.size() == 1) {
      out << json_text(pose_object(poses.front(), path, format_id)) << '\n';
      return;
    }
    auto array = nlohmann::ordered_json::array();
    for (const auto& pose : poses) array.push_back(pose_object(pose, path, format_id));
    out << json_text(array) << '\n';
    return;
  }
  write_table(out, pose_table(poses), format, header);
}

}  // namespace animdex
