#pragma once
// A verb registers its own options, help and examples on the command line, and says how to run
// once the line is parsed: cli.cpp only collects verbs and runs the one that was given.
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "output/result_table.h"

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace animdex {

struct Verb {
  CLI::App* command = nullptr;                  // the (sub)command that selects it
  std::function<int(std::ostream& out)> run;    // called after parsing; returns the exit code
};

// One registration function per verb family (each in its own file).
std::vector<Verb> add_index_verb(CLI::App& app);     // index_verb.cpp: index, drop
std::vector<Verb> add_query_verbs(CLI::App& app);    // query_verbs.cpp: query, queries, sql, formats, schema
std::vector<Verb> add_info_verb(CLI::App& app);      // info_verb.cpp
std::vector<Verb> add_sample_verbs(CLI::App& app);   // sample_verbs.cpp: sample, demo
std::vector<Verb> add_report_verbs(CLI::App& app);   // report_verbs.cpp: report reuse, report docs, diff
std::vector<Verb> add_curve_verbs(CLI::App& app);    // curve_verbs.cpp: pose, export, convert
std::vector<Verb> add_plot_verb(CLI::App& app);      // plot_verb.cpp: plot
std::vector<Verb> add_view_verb(CLI::App& app);      // view_verb.cpp: view
std::vector<Verb> add_container_verbs(CLI::App& app);  // container_verbs.cpp: ls, extract

// Shared option helpers.
// Output format options are read as text and converted after parsing, so a bad value gets
// CLI11's plain "not in {...}" message.
struct FormatOption {
  std::string name = "table";
  bool no_header = false;  // --no-header: csv and tsv without their header line
  OutputFormat value() const;
};
// Adds -f/--format limited to `allowed`, and --no-header when csv or tsv is among them (unless the
// verb prints several tables, where a header names each: `header_option` false).
void add_format_option(CLI::App& command, FormatOption& format,
                       const std::vector<std::string>& allowed = {"table", "csv", "tsv", "json", "jsonl", "markdown"},
                       bool header_option = true);
// A number that is finite: "nan" and "inf" parse as doubles but mean nothing as a time or a wait.
const CLI::Validator& finite_number();
// A finite number >= 0, or > 0, with a message that says so (CLI11's own prints DBL_MAX in full).
const CLI::Validator& non_negative_number();
const CLI::Validator& positive_number();
// The verb's own examples, shown at the end of `animdex VERB --help`.
void add_examples(CLI::App& command, std::initializer_list<std::string_view> examples);

}  // namespace animdex
