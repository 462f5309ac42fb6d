#include "cli/verb.h"

#include <CLI/CLI.hpp>
#include <algorithm>

#include "db/sql_runner.h"

namespace animdex {

OutputFormat FormatOption::value() const { return parse_output_format(name).value_or(OutputFormat::table); }

void add_format_option(CLI::App& command, FormatOption& format, const std::vector<std::string>& allowed,
                       bool header_option) {
  std::string help = "Output format:";
  for (const auto& name : allowed) help += " " + name;
  // transform, not check: `--format CSV` is stored as `csv`, the name value() knows.
  command.add_option("-f,--format", format.name, help)->transform(CLI::IsMember(allowed, CLI::ignore_case))->capture_default_str();
  const bool separated = std::find(allowed.begin(), allowed.end(), "csv") != allowed.end() ||
                         std::find(allowed.begin(), allowed.end(), "tsv") != allowed.end();
  if (!header_option || !separated) return;
  command.add_flag("--no-header", format.no_header, "csv and tsv: leave out the header line");
  // Other formats have no header line to leave out: say so rather than ignore the flag.
  command.parse_complete_callback([&format] {
    const auto kind = format.value();
    if (format.no_header && kind != OutputFormat::csv && kind != OutputFormat::tsv)
      throw CLI::ValidationError("--no-header", "applies to --format csv and tsv only (the format is " + format.name + ")");
  });
}

namespace {

// A finite decimal number (the parse sql -p uses) that `accept` takes; else the message says what was wanted.
CLI::Validator number_validator(bool (*accept)(double), const char* wanted) {
  return CLI::Validator(
      [accept, wanted](const std::string& text) {
        const auto value = parse_finite_real(text);
        return value && accept(*value) ? std::string() : std::string("expected ") + wanted + ", got " + text;
      },
      "NUMBER");
}

}  // namespace

const CLI::Validator& finite_number() {
  static const CLI::Validator validator = number_validator([](double) { return true; }, "a finite number");
  return validator;
}

const CLI::Validator& non_negative_number() {
  static const CLI::Validator validator = number_validator([](double v) { return v >= 0; }, "a number >= 0");
  return validator;
}

const CLI::Validator& positive_number() {
  static const CLI::Validator validator = number_validator([](double v) { return v > 0; }, "a number > 0");
  return validator;
}

void add_examples(CLI::App& command, std::initializer_list<std::string_view> examples) {
  std::string footer = "Examples:";
  for (const auto example : examples) footer += "\n  " + std::string(example);
  command.footer(footer);
}

}  // namespace animdex
