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

namespace {

CLI::Validator number_validator(bool (*accept)(double), const char* wanted) {
  return CLI::Validator(
      [accept, wanted](const std::string& text) {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        const bool number = end != text.c_str() && *end == '\0' && std::isfinite(value);
        return number && accept(value) ? std::string() : std::string("expected ") + wanted + ", got " + text;
      },
      "NUMBER");
}

}  // namespace

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
