// `animdex plot`: a file's curves as one self-contained HTML page (reports/curve_page.h).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>
#include <ostream>
#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "cli/errors.h"
#include "cli/input_loading.h"
#include "cli/linked_node_names.h"
#include "cli/verb.h"
#include "cli/view_verb.h"
#include "indexer/file_reader.h"
#include "formats/registry.h"
#include "core/number_text.h"
#include "core/parse_budget.h"
#include "output/output_file.h"
#include "reference/reference_data.h"
#include "reports/curve_page.h"
#include "reports/player_page.h"

namespace animdex {

namespace {

// A page past this size is slow to open and to share; a file whose animations together pass it is
// plotted one animation at a time.
constexpr std::size_t kPageLimit = 1'000'000;

std::string size_text(std::size_t bytes) {
  return bytes >= 1'000'000 ? fmt::format("{:.1f} MB", static_cast<double>(bytes) / 1e6)
                            : fmt::format("{} KB", (bytes + 999) / 1000);
}

// What --slot or --anim names: "144", "2/1", or the animation's name where it has no slot.
std::string choice_of(const AnimationCurves& curves) { return curves.slot.empty() ? curves.animation : curves.slot; }

// The heading of an animation, with the purpose the reference gives its ID in the format's game
// (GNT4's animation IDs: "slot 144: 0x0090 (5B)").
// (GNT4's animation IDs: "slot 144: 0x0090 (5B)"; KH2's motion names, as the docs label slots:
// "slot 0: A000 (IDLE)").
std::string heading_of(const AnimationCurves& curves, std::string_view game, const std::filesystem::path& file) {
  std::optional<std::string> name;
  if (curves.motion_id && !game.empty()) {
    const auto& reference = ReferenceData::embedded();
    name = reference.purpose(game, *curves.motion_id);
    if (!name) name = reference.motion_name(game, "code", *curves.motion_id);
  }
  return reports::animation_heading(curves, name, file.filename().string());
}

// Bone names where the format's game has them, DS node names from the linked model; an IK helper
// is not a bone of the skeleton.
reports::NodeNames names_of(const AnimationCurves& curves, std::string_view game, LinkedNodeNames& linked) {
  reports::NodeNames names;
  for (const auto& channel : curves.channels) {
    if (!channel.node || channel.node_kind == "ik_helper") continue;
    if (channel.node_kind == "node") {
      if (const auto* name = linked.name(curves.animation, *channel.node)) names[{channel.node_kind, *channel.node}] = *name;
    } else if (const auto name = game.empty() ? std::nullopt : ReferenceData::embedded().bone_name(game, *channel.node)) {
      names[{channel.node_kind, *channel.node}] = *name;
    }
  }
  return names;
}

std::vector<reports::CurveSection> sections_of(std::vector<AnimationCurves> animations, const FormatModule& format,
                                               const std::filesystem::path& file, LinkedNodeNames& linked) {
  std::vector<reports::CurveSection> sections;
  for (auto& curves : animations) {
    reports::CurveSection section;
    section.anchor = fmt::format("a{}", sections.size());
    section.heading = heading_of(curves, format.reference_game, file);
    section.node_names = names_of(curves, format.reference_game, linked);
    section.curves = std::move(curves);
    sections.push_back(std::move(section));
  }
  return sections;
}

std::string intro_of(const std::filesystem::path& file, const FormatModule& format,
                     const std::vector<reports::CurveSection>& sections, const CurveRequest& request) {
  const std::string what =
      sections.empty() ? "holds no animation"
      : sections.size() == 1 ? "holds one animation"
                             : fmt::format("holds {} animations, one section each (the links above go to them)",
                                           sections.size());
  return fmt::format("{} ({}) {}. Sampled {} times per second; each line keeps at most {} samples besides every "
                     "key. Hover a line for its channel.",
                     file.string(), format.id, what, number_text(request.samples_per_second),
                     reports::CurvePageOptions{}.samples_per_line);
}

// The animations to choose from when the whole file makes too large a page, each as its heading
// ("slot 0: 0x0000 (Idle)"), or what --anim takes and the heading.
std::string choices_listed(const std::vector<reports::CurveSection>& sections) {
  std::string text;
  for (const auto& section : sections) {
    const std::string choice = choice_of(section.curves);
    const bool named_by_slot = section.heading == "slot " + choice || section.heading.starts_with("slot " + choice + ":");
    text += (text.empty() ? "" : "; ") + (named_by_slot ? section.heading : choice + " (" + section.heading + ")");
  }
  return text;
}

// The player page `plot` writes beside its page: PAGE.player.html.
std::filesystem::path player_path_of(const std::filesystem::path& page) {
  auto path = page;
  path.replace_extension(".player.html");
  return path;
}

// The file's 3D player, made quietly (a file with no skeleton simply has none), its page linked
// from each section it holds; the page to write, or empty with the reason in `why`.
std::string player_for(const PlotOptions& options, std::vector<reports::CurveSection>& sections, std::string& why) {
  const auto path = player_path_of(options.output);
  std::error_code error;
  if (std::filesystem::exists(options.output, error) && !std::filesystem::is_regular_file(options.output, error)) {
    why = "the page is not written to a file, so there is no folder to write the player into";
    return "";
  }
  if (!player_replaceable(path)) {
    why = fmt::format("{} exists and is not a player animdex wrote; it is left alone", path.string());
    return "";
  }
  const CapturedFailure quiet;
  auto scripts = player_scripts();
  if (std::get_if<int>(&scripts)) {
    why = quiet.message();
    return "";
  }
  std::size_t scripts_bytes = 0;
  for (const auto& [name, text] : std::get<0>(scripts)) scripts_bytes += text.size();
  PoseRequest chosen;
  chosen.slot = options.request.slot;
  chosen.animation = options.request.animation;
  chosen.fps = options.request.fps;
  auto made = make_player(options.file, chosen, {}, scripts_bytes);
  if (std::get_if<int>(&made)) {
    why = quiet.message();
    return "";
  }
  auto& page = std::get<reports::PlayerPage>(made);
  page.back_link = options.output.filename().string();
  const auto href = path.filename().string();
  reports::PlayerAddresses addresses;
  addresses.add(page, href);
  for (auto& section : sections) section.player = addresses.of(section.curves);
  return reports::player_page_html(page, inlined(std::get<0>(scripts)));
}

std::size_t chart_count(const std::string& html) {
  std::size_t count = 0;
  for (auto at = html.find("<svg class=\"chart curve\""); at != std::string::npos; at = html.find("<svg class=\"chart curve\"", at + 1))
    ++count;
  return count;
}

}  // namespace

int run_plot(const PlotOptions& options, std::ostream& /*out: writes only its file*/) {
  if (same_file(options.output, options.file))
    return fail(kExitUsage, fmt::format("{} is the file being read; give another --out", options.output.string()));
  const ScopedParseBudget budget;
  auto input = load_for(options.file, &FormatModule::curves, "plot");
  if (const int* code = std::get_if<int>(&input)) return *code;
  const auto& [file, format] = std::get<0>(input);
  if (const int code = unused_selector(*format, options.request.slot, options.request.animation)) return code;
  auto curves = answered(format->curves(file.bytes, options.request), options.file);
  if (const int* code = std::get_if<int>(&curves)) return *code;
  LinkedNodeNames linked(options.file, file.bytes, *format, options.request.slot, options.request.animation,
                         options.request.fps);
  auto sections = sections_of(std::get<std::vector<AnimationCurves>>(std::move(curves)), *format, options.file, linked);
  std::string no_player;
  const std::string player = player_for(options, sections, no_player);
  const auto& request = options.request;
  reports::CurvePageOptions page_options;
  page_options.section_budget = kPageLimit - 20'000;  // room for the page's head, intro and links
  // The title names the file as given (a member's own name may be a bare number: `6`) and the
  // animation, so a browser tab says what it plays.
  const std::string title = sections.size() == 1
                                ? fmt::format("{}: {}", options.file.string(), sections.front().heading)
                                : fmt::format("{}: {} animations", options.file.string(), sections.size());
  const std::string html = reports::curve_page(title,
                                               intro_of(options.file, *format, sections, request), sections,
                                               page_options);
  const bool chosen = !request.slot.empty() || !request.animation.empty();
  if (html.size() > kPageLimit && !chosen && sections.size() > 1)
    return fail(kExitUsage, fmt::format("{}: the curves of its {} animations make a page of {}, over 1 MB; plot one at "
                                        "a time with --slot S (or --anim NAME). It holds: {}",
                                        options.file.string(), sections.size(), size_text(html.size()),
                                        choices_listed(sections)));
  if (html.size() > kPageLimit)
    spdlog::warn("{}: the page is {}; a browser may be slow to open it", options.output.string(), size_text(html.size()));
  try {
    write_file_checked(options.output, html);
    if (!player.empty()) write_file_checked(player_path_of(options.output), player);
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
  const auto plural = [](std::size_t count, const char* noun) {
    return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
  };
  report_written(options.output, fmt::format("{}, {}, {}", plural(sections.size(), "animation"),
                                             plural(chart_count(html), "chart"), size_text(html.size())));
  if (!player.empty())
    report_written(player_path_of(options.output),
                   fmt::format("the 3D player, {}; each animation's section links to it", size_text(player.size())));
  else
    fmt::print(stderr, "animdex: note: no 3D player: {}\n", no_player);
  return kExitOk;
}

std::vector<Verb> add_plot_verb(CLI::App& app) {
  auto options = std::make_shared<PlotOptions>();
  auto* plot = app.add_subcommand(
      "plot", "Draw an animation file's curves as one self-contained HTML page: a chart per bone or node, its "
              "channels over time, keys marked (" + families_with_curves() + ")");
  plot->add_option("file", options->file, "Animation file, or a member of a disc image or archive (IMAGE/path/in/it)")
      ->required();
  auto* slot = plot->add_option("--slot", options->request.slot,
                                fmt::format("Only this animation: {} (default: every animation of the file)",
                                            help_by_family(&FormatHelp::slot)));
  auto* anim = plot->add_option("--anim", options->request.animation,
                                "Only this animation, by name: " + help_by_family(&FormatHelp::animation));
  slot->excludes(anim);
  plot->add_option("--fps", options->request.fps,
                   fmt::format("The file's frame rate where its keys are frames it does not time ({})",
                               help_by_family(&FormatHelp::fps)))
      ->check(positive_number());
  plot->add_option("--rate", options->request.samples_per_second,
                   "Samples per second of the drawn lines (each line keeps at most 150 of them, and every key)")
      ->check(positive_number())->capture_default_str();
  plot->add_option("-o,--out", options->output, "The HTML page to write")->required();
  add_examples(*plot, {"animdex plot files/chr/sas/0000.mot --out sas.html",
                       "animdex plot files/chr/sas/0000.mot --slot 0x90 --out sas-5b.html",
                       "animdex plot obj/P_EX100.mset --slot 0 --out sora-idle.html",
                       "animdex plot gnt4.iso/fpack/chr/nar1000.fpk/chr/nar/0000.mot --out nar.html"});
  return {{plot, [options](std::ostream& out) { return run_plot(*options, out); }}};
}

}  // namespace animdex
