#include "cli/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "cli/errors.h"
#include "cli/verb.h"
#include "output/output_file.h"

namespace animdex {

namespace {

constexpr const char* kFooter = R"(Exit codes: 0 ok; 1 fatal error (database, I/O, SQL); 2 usage error;
3 finished but some input files had errors; 4 a statement that would write was refused.
`animdex VERB --help` shows each verb's options and examples.
Examples:
  animdex demo
  animdex index /path/to/gnt4/root --db gnt4.db --label ntsc
  animdex query bone-users --db gnt4.db -p bone 0x76
  animdex sql "SELECT character, COUNT(*) FROM files GROUP BY 1" --db gnt4.db --format csv
  animdex query dummy-slots --db kh2.db -p file=P_EX100
  animdex report docs --db gnt4.db --out docs
  animdex diff --db gnt4.db --from ntsc --to pal --format markdown)";

// Messages go to stderr as "animdex: LEVEL: ..."; the logger lives as long as one command line.
struct ScopedLogger {
  ScopedLogger() {
    spdlog::set_default_logger(spdlog::stderr_color_mt("animdex"));
    spdlog::set_pattern("animdex: %l: %v");
    spdlog::set_level(spdlog::level::warn);
  }
  ~ScopedLogger() { spdlog::drop("animdex"); }
};

// `-p NAME=VALUE` is what people type; the parser wants `-p NAME VALUE`. A token after -p/--param
// is split at its first '=' when NAME is an identifier and no value token follows it.
std::vector<std::string> split_parameter_assignments(int argc, const char* const* argv) {
  std::vector<std::string> arguments(argv, argv + argc);
  std::vector<std::string> result;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    result.push_back(arguments[i]);
    if ((arguments[i] != "-p" && arguments[i] != "--param") || i + 1 >= arguments.size()) continue;
    const std::string& token = arguments[i + 1];
    const auto equals = token.find('=');
    const bool identifier = equals != std::string::npos && equals > 0 &&
                            std::all_of(token.begin(), token.begin() + static_cast<std::ptrdiff_t>(equals), [](char c) {
                              return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                            });
    const bool value_follows = i + 2 < arguments.size() && !arguments[i + 2].starts_with('-');
    if (!identifier || value_follows) continue;
    result.push_back(token.substr(0, equals));
    result.push_back(token.substr(equals + 1));
    ++i;
  }
  return result;
}

std::vector<Verb> register_verbs(CLI::App& app) {
  std::vector<Verb> verbs;
  for (auto add : {&add_index_verb, &add_query_verbs, &add_info_verb, &add_report_verbs, &add_curve_verbs, &add_container_verbs,
                   &add_sample_verbs})
    for (auto& verb : add(app)) verbs.push_back(std::move(verb));
  return verbs;
}

int run_verb(int argc, const char* const* argv, std::ostream& out) {
  const ScopedLogger logger;
  CLI::App app{"animdex: index game animation files (GNT .mot, KH2 .mset/.anb, NDS .nsbca, LightWave .mot/.env) "
               "into SQLite, query them, and report on reuse and changes",
               "animdex"};
  app.footer(kFooter);
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("animdex ") + ANIMDEX_VERSION);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "More messages on stderr");
  const auto verbs = register_verbs(app);
  try {
    const auto arguments = split_parameter_assignments(argc, argv);
    std::vector<const char*> pointers;
    for (const auto& argument : arguments) pointers.push_back(argument.c_str());
    app.parse(static_cast<int>(pointers.size()), pointers.data());
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help, out, std::cerr);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help, out, std::cerr);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version, out, std::cerr);
  } catch (const CLI::ParseError& error) {
    // The one message style, with where to look next: the verb that was being parsed, if any.
    std::string verb;
    for (const CLI::App* command = &app; !command->get_subcommands().empty();) {
      command = command->get_subcommands().front();
      verb += " " + command->get_name();
    }
    return fail(kExitUsage, fmt::format("{} (see `animdex{} --help`)", error.what(), verb));
  }
  if (verbose) spdlog::set_level(spdlog::level::info);
  for (const auto& verb : verbs)
    if (*verb.command) return verb.run(out);
  return fail(kExitUsage, "no verb given; `animdex --help` lists them");
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out) {
  const int code = run_verb(argc, argv, out);
  if (flush_succeeded(out)) return code;
  // errno is not the stream's by now (later calls overwrite it), so the message names no reason.
  return fail(kExitFatal, "cannot write the output: standard output refused it (a full disk, a closed pipe or a "
                          "device that takes nothing)");
}

}  // namespace animdex
