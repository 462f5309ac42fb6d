#include "cli/verb.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>

namespace animdex {

OutputFormat FormatOption::value() const { return parse_output_format(name).value_or(OutputFormat::table); }

void add_format_option(CLI::App& command, FormatOption& format, const std::vector<std::string>& allowed) {
  std::string help = "Output format:";
  for (const auto& name : allowed) help += " " + name;
  command.add_option("-f,--format", format.name, help)->check(CLI::IsMember(allowed, CLI::ignore_case))->capture_default_str();
}

const CLI::Validator& finite_number() {
  static const CLI::Validator validator(
      [](const std::string& text) {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        return end != text.c_str() && *end == '\0' && std::isfinite(value) ? std::string()
                                                                            : "expected a finite number, got " + text;
      },
      "NUMBER");
  return validator;
}

void add_examples(CLI::App& command, std::initializer_list<std::string_view> examples) {
  std::string footer = "Examples:";
  for (const auto example : examples) footer += "\n  " + std::string(example);
  command.footer(footer);
}

}  // namespace animdex
