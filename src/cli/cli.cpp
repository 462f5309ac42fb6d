#include "cli/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <functional>
#include <string_view>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "cli/errors.h"
#include "core/nearest_names.h"
#include "cli/verb.h"
#include "formats/registry.h"
#include "db/database.h"
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
// The logger before it comes back afterwards: dropping the default logger leaves spdlog without
// one, and the next spdlog::info in the process (a test indexing after a command line) crashed.
struct ScopedLogger {
  std::shared_ptr<spdlog::logger> previous = spdlog::default_logger();
  spdlog::level::level_enum previous_level = previous ? previous->level() : spdlog::level::info;
  ScopedLogger() {
    spdlog::set_default_logger(spdlog::stderr_color_mt("animdex"));
    spdlog::set_pattern("animdex: %l: %v");
    spdlog::set_level(spdlog::level::warn);
  }
  ~ScopedLogger() {
    spdlog::drop("animdex");
    if (!previous) return;
    spdlog::set_default_logger(previous);
    previous->set_level(previous_level);
  }
};

// `NAME=VALUE` with NAME an identifier.
bool is_assignment(std::string_view token) {
  const auto equals = token.find('=');
  return equals != std::string_view::npos && equals > 0 &&
         std::all_of(token.begin(), token.begin() + static_cast<std::ptrdiff_t>(equals),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A token CLI11 takes for an option rather than a value: `--name`, `-x`; `-1` and `-0.5` are values.
bool option_like(std::string_view token) {
  // `--name` or `-x`; `-1`, `-.5` and `-%` (a LIKE pattern) are values, as CLI11 reads them too.
  if (token.size() < 2 || token[0] != '-') return false;
  return token[1] == '-' ? token.size() > 2 : std::isalpha(static_cast<unsigned char>(token[1])) != 0;
}

// The verb (and nested verb) the line names, and the index of the first argument after it; the
// application itself and 1 when the first word names none. Options before the verb are the
// application's own flags, which take no value.
std::pair<CLI::App*, std::size_t> named_verb(CLI::App& app, const std::vector<std::string>& arguments) {
  CLI::App* command = &app;
  std::size_t next = 1;
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    if (option_like(arguments[i])) continue;
    const auto found = command->get_subcommands([&](CLI::App* sub) { return sub->get_name() == arguments[i]; });
    if (found.empty()) break;
    command = found.front();
    next = i + 1;
  }
  return {command, next};
}

// `-p` on a verb that takes parameters needs NAME VALUE or NAME=VALUE after it. CLI11 would
// otherwise take the next option's value for the missing one (`-p bone --format csv` binds
// `csv`), or say "2 required [TEXT,TEXT] missing". The message, or empty when the line is fine.
std::string missing_parameter_value(CLI::App& app, const std::vector<std::string>& arguments) {
  const auto [command, first] = named_verb(app, arguments);
  if (command == &app || !command->get_option_no_throw("-p")) return {};
  for (std::size_t i = first; i < arguments.size(); ++i) {
    const auto& flag = arguments[i];
    if (flag == "--") break;  // positional arguments only from here on
    if (flag != "-p" && flag != "--param") continue;
    std::string problem;
    if (i + 1 >= arguments.size() || option_like(arguments[i + 1])) {
      problem = fmt::format("`{}` has neither", flag);
    } else if (!is_assignment(arguments[i + 1]) && (i + 2 >= arguments.size() || option_like(arguments[i + 2]))) {
      problem = fmt::format("`{} {}` has no value", flag, arguments[i + 1]);
    } else {
      i += is_assignment(arguments[i + 1]) ? 1 : 2;
      continue;
    }
    return fmt::format("{} needs NAME VALUE (or NAME=VALUE): {} (see `animdex {} --help`)", flag, problem,
                       command->get_name());
  }
  return {};
}

// The verbs nearest to a mistyped one, `prefix` before each: "`index`", "`sql` or `ls`" (a tie, in
// the order of --help); empty when none is near: at most 2 edits, and at most half the word's
// letters but 1 (`xx` is no typo of `ls`, `sl` is).
std::string nearest_verbs(const CLI::App& command, std::string_view word, const std::string& prefix) {
  std::vector<std::string> verbs;
  for (const auto* verb : command.get_subcommands([](const CLI::App*) { return true; }))
    if (!verb->get_name().empty()) verbs.push_back(verb->get_name());
  const auto best = nearest_names(word, verbs, verbs.size());
  std::string text;
  for (std::size_t i = 0; i < best.size(); ++i)
    text += fmt::format("{}`{}{}`", i == 0 ? "" : i + 1 == best.size() ? " or " : ", ", prefix, best[i]);
  return text;
}

// The deepest verb the line selected (the application when none) and the verbs' path: " report reuse".
std::pair<const CLI::App*, std::string> selected_verb(const CLI::App& app) {
  std::string path;
  const CLI::App* command = &app;
  while (!command->get_subcommands().empty()) {
    command = command->get_subcommands().front();
    path += " " + command->get_name();
  }
  return {command, path};
}

// Where a verb was wanted (the application, or a verb such as `report` that has verbs of its own)
// and none was given or the word is none of them: what to say instead of CLI11's "A subcommand is
// required". `path` is the verbs given so far (" report"); empty when this is not the case.
std::string verb_problem(const CLI::App& command, const std::string& path) {
  if (command.get_subcommands([](const CLI::App*) { return true; }).empty() || !command.get_subcommands().empty())
    return {};
  const auto words = command.remaining();
  const auto help = fmt::format("`animdex{} --help` lists the verbs", path);
  if (words.empty()) return fmt::format("no verb given; {}", help);
  if (option_like(words.front()))
    return fmt::format("no verb given (`{}` is not an option of `animdex{}`; a verb's options follow it); {}",
                       words.front(), path, help);
  const auto prefix = path.empty() ? std::string() : path.substr(1) + " ";  // "report "
  const auto suggestions = nearest_verbs(command, words.front(), prefix);
  if (suggestions.empty()) return fmt::format("unknown verb '{}{}' ({})", prefix, words.front(), help);
  return fmt::format("unknown verb '{}{}'; did you mean {}? ({})", prefix, words.front(), suggestions, help);
}

// For words CLI11 could not place: a mistyped verb before a real one (`qeury formats`), or a
// mistyped option of the verb (`--frmae`), with the nearest names; empty when neither applies.
std::string unplaced_words(const CLI::App& app, const CLI::App& command, const std::string& path) {
  for (const auto& word : app.remaining()) {
    if (option_like(word)) continue;
    if (const auto verbs = nearest_verbs(app, word, ""); !verbs.empty())
      return fmt::format("unknown verb '{}'; did you mean {}? (`animdex --help` lists the verbs)", word, verbs);
  }
  std::vector<std::string> options;
  for (const auto* option : command.get_options()) {
    for (const auto& name : option->get_lnames()) options.push_back("--" + name);
    for (const auto& name : option->get_snames()) options.push_back("-" + name);
  }
  const auto left = command.remaining();
  const bool numbers = !left.empty() && std::all_of(left.begin(), left.end(), [](const std::string& word) {
    return !word.empty() && word.find_first_not_of("0123456789.+-eE") == std::string::npos;
  });
  if (numbers && std::find(options.begin(), options.end(), "--frame") != options.end())
    return fmt::format("unexpected {}: --time and --frame take one value each; repeat the option for more "
                       "(--frame 3 --frame 4) (see `animdex{} --help`)", fmt::join(left, " "), path);
  for (const auto& word : left) {
    if (!word.starts_with("--")) continue;
    const auto name = word.substr(0, word.find('='));
    if (std::find(options.begin(), options.end(), name) != options.end()) continue;
    return fmt::format("unknown option '{}'{} (see `animdex{} --help`)", name, nearest_hint(name, options), path);
  }
  return {};
}

// `-p NAME=VALUE` is what people type; the parser wants `-p NAME VALUE`. A token after -p/--param
// is split at its first '=' when NAME is an identifier and no value token follows it.
std::vector<std::string> split_parameter_assignments(int argc, const char* const* argv) {
  std::vector<std::string> arguments(argv, argv + argc);
  std::vector<std::string> result;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    result.push_back(arguments[i]);
    if ((arguments[i] != "-p" && arguments[i] != "--param") || i + 1 >= arguments.size()) continue;
    const std::string& token = arguments[i + 1];
    const bool value_follows = i + 2 < arguments.size() && !arguments[i + 2].starts_with('-');
    if (!is_assignment(token) || value_follows) continue;
    const auto equals = token.find('=');
    result.push_back(token.substr(0, equals));
    result.push_back(token.substr(equals + 1));
    ++i;
  }
  return result;
}

std::vector<Verb> register_verbs(CLI::App& app) {
  std::vector<Verb> verbs;
  for (auto add : {&add_index_verb, &add_query_verbs, &add_info_verb, &add_report_verbs, &add_curve_verbs, &add_plot_verb, &add_view_verb,
                   &add_container_verbs, &add_sample_verbs})
    for (auto& verb : add(app)) verbs.push_back(std::move(verb));
  return verbs;
}

int run_verb(int argc, const char* const* argv, std::ostream& out) {
  const ScopedLogger logger;
  CLI::App app{fmt::format("animdex: index game animation files ({}) into SQLite, query them, and report on reuse "
                           "and changes", families_with_extensions()),
               "animdex"};
  app.footer(kFooter);
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("animdex ") + ANIMDEX_VERSION);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "More messages on stderr");
  const auto verbs = register_verbs(app);
  // -v works after the verb too (`animdex index DIR --db x.db -v`): every verb has it.
  const std::function<void(CLI::App&)> add_verbose = [&](CLI::App& command) {
    for (auto* verb : command.get_subcommands([](CLI::App*) { return true; })) {
      verb->add_flag("-v,--verbose", verbose, "More messages on stderr");
      add_verbose(*verb);
    }
  };
  add_verbose(app);
  // Every verb that reads a database holds its SQL to a time budget (db/database.h): a hostile or
  // huge database stops a reader with an error instead of holding it without end.
  double timeout_seconds = kDefaultReadTimeoutSeconds;
  const std::function<void(CLI::App&)> add_timeout = [&](CLI::App& command) {
    for (auto* verb : command.get_subcommands([](CLI::App*) { return true; })) {
      if (verb->get_option_no_throw("--db") && verb->get_name() != "index")
        verb->add_option("--timeout", timeout_seconds,
                         "Stop reading the database after this many seconds (0: no limit)")
            ->envname("ANIMDEX_TIMEOUT")->check(CLI::NonNegativeNumber)->capture_default_str();
      add_timeout(*verb);
    }
  };
  add_timeout(app);
  try {
    const auto problem = missing_parameter_value(app, std::vector<std::string>(argv, argv + argc));
    if (!problem.empty()) return fail(kExitUsage, problem);
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
    const auto [command, verb] = selected_verb(app);
    if (const auto problem = verb_problem(*command, verb); !problem.empty()) return fail(kExitUsage, problem);
    if (dynamic_cast<const CLI::ExtrasError*>(&error))
      if (const auto problem = unplaced_words(app, *command, verb); !problem.empty()) return fail(kExitUsage, problem);
    std::string message = error.what();
    if (message == "--db is required") message += ": give --db FILE, or name it once with ANIMDEX_DB=FILE";
    return fail(kExitUsage, fmt::format("{} (see `animdex{} --help`)", message, verb));
  }
  if (verbose) {
    spdlog::set_level(spdlog::level::info);
    spdlog::info("animdex {}, verb `{}`", ANIMDEX_VERSION, selected_verb(app).second.substr(1));
  }
  set_read_time_budget(std::chrono::milliseconds(static_cast<std::int64_t>(timeout_seconds * 1000)));
  struct BudgetEnds {  // the budget is this command line's: a caller in the same process reads without it
    ~BudgetEnds() { set_read_time_budget(std::chrono::milliseconds(0)); }
  } budget_ends;
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
