#pragma once
// Verbs that need more than a few lines live in their own files.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/capabilities.h"
#include "output/result_table.h"

namespace animdex {

struct InfoOptions {
  std::filesystem::path file;
  OutputFormat format = OutputFormat::table;
  bool show_keys = false;
};
int run_info(const InfoOptions& options, std::ostream& out);

struct DemoOptions {
  std::filesystem::path directory;  // sample dump and database go here
  int character_count = 12;
  OutputFormat format = OutputFormat::table;
  int threads = 0;
  bool force = false;  // replace a folder that holds other files
};
int run_demo(const DemoOptions& options, std::ostream& out);

// Reports (reports/): reuse, documentation tables, diffs.
struct ReuseCommandOptions {
  std::string database;
  std::optional<std::string> dump;
  std::string format = "markdown";
  double tolerance = 1e-3;
  std::int64_t min_track_keys = 2;
  std::string output;  // empty: standard output
};
int run_report_reuse(const ReuseCommandOptions& options, std::ostream& out);

struct DocsCommandOptions {
  std::string database;
  std::optional<std::string> dump;
  std::string output;  // folder
  bool show_roots = false;
  bool force = false;  // write into a folder holding files `report docs` did not write
};
int run_report_docs(const DocsCommandOptions& options, std::ostream& out);

struct DiffCommandOptions {
  std::vector<std::string> databases;  // positional: A.db [B.db]
  std::string database;                // --db
  std::optional<std::string> from, to;
  std::string format = "table";
  std::string output;
};
int run_diff(const DiffCommandOptions& options, std::ostream& out);

}  // namespace animdex

namespace animdex {

// Verbs on one file through a format's capabilities (formats/capabilities.h): pose, export, convert.
struct PoseOptions {
  std::filesystem::path file;
  PoseRequest request;                // the animation; each time below fills its seconds or frame
  std::vector<double> times, frames;  // --time / --frame, each repeatable: one pose per value
  OutputFormat format = OutputFormat::table;
  bool header = true;  // csv/tsv: the header line (--no-header turns it off)
  bool world = false;  // --world: joints in world space on the animation's skeleton
  std::filesystem::path model;  // --model: that skeleton, chosen by hand
};
int run_pose(const PoseOptions& options, std::ostream& out);
int run_pose_world(const PoseOptions& options, std::ostream& out);

struct ExportOptions {
  std::filesystem::path file;
  CurveRequest request;
  std::filesystem::path output;       // empty: standard output
  std::filesystem::path gltf;         // --gltf: the glTF file to write instead of CSV
  std::filesystem::path model;        // --model: the skeleton, chosen by hand
  std::optional<double> rate;         // --rate: glTF samples per second (default: the source's own)
  std::string rotations = "native";   // --rotations: CSV rotations as stored, quaternion or euler
};
int run_export(const ExportOptions& options, std::ostream& out);
int run_export_gltf(const ExportOptions& options, std::ostream& out);

struct ConvertOptions {
  std::filesystem::path input;
  std::filesystem::path output;
  ConvertRequest request;
};
int run_convert(const ConvertOptions& options, std::ostream& out);

struct PlotOptions {
  std::filesystem::path file;
  CurveRequest request;
  std::filesystem::path output;  // the HTML page to write
};
int run_plot(const PlotOptions& options, std::ostream& out);

}  // namespace animdex
