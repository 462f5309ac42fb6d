#include "cli/view_verb.h"

#include <array>
#include <functional>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/errors.h"
#include "cli/exit_codes.h"
#include "cli/file_export.h"
#include "cli/verb.h"
#include "formats/export_sampling.h"
#include "indexer/file_reader.h"
#include "output/output_file.h"
#include "rig/gltf_writer.h"

namespace animdex {

namespace {

constexpr const char* kThreeFolder = "/usr/share/javascript/three/";

// Room the page's own HTML, names and notes take besides the scripts and the .glb.
constexpr std::size_t kPageOverhead = 256u << 10;

std::size_t glb_budget(std::size_t scripts_bytes) {
  const std::size_t room = kPlayerPageBudget > scripts_bytes + kPageOverhead ? kPlayerPageBudget - scripts_bytes - kPageOverhead : 0;
  return room / 4 * 3;  // base64 makes 3 bytes 4
}

std::string size_text(std::size_t bytes) { return fmt::format("{:.1f} MB", static_cast<double>(bytes) / 1e6); }

}  // namespace

std::variant<std::vector<std::pair<std::string, std::string>>, int> player_scripts() {
  static constexpr std::array<const char*, 3> kFiles{"three.min.js", "examples/js/loaders/GLTFLoader.js",
                                                     "examples/js/controls/OrbitControls.js"};
  std::vector<std::pair<std::string, std::string>> scripts;
  for (const char* file : kFiles) {
    const auto path = std::string(kThreeFolder) + file;
    const auto read = read_file_bytes(path, 16u << 20);
    if (!read.error.empty())
      return fail(kExitFatal, fmt::format("{}: {}; the player needs three.js from Debian's libjs-three "
                                          "(scripts/install-deps.sh installs it)", path, read.error));
    scripts.emplace_back(std::filesystem::path(file).filename().string(),
                         std::string(reinterpret_cast<const char*>(read.bytes.data()), read.bytes.size()));
  }
  return scripts;
}

reports::PlayerScripts inlined(const std::vector<std::pair<std::string, std::string>>& scripts) {
  return {true, scripts.at(0).second, scripts.at(1).second, scripts.at(2).second};
}

reports::PlayerScripts beside(const std::vector<std::pair<std::string, std::string>>& scripts) {
  return {false, scripts.at(0).first, scripts.at(1).first, scripts.at(2).first};
}

namespace {

std::variant<reports::PlayerPage, int> player_within(const std::filesystem::path& file, const PoseRequest& chosen,
                                                     const std::filesystem::path& model, std::size_t budget,
                                                     std::size_t skip, const EntryFilter& keep) {
  auto done = export_file(file, request_of(file, chosen, std::nullopt), model, "view", budget, skip, keep);
  if (const int* code = std::get_if<int>(&done)) return *code;
  auto& exported = std::get<Exported>(done);
  reports::PlayerPage page;
  page.title = file.string();
  page.glb_base64 = rig::base64(exported.writer->bytes(true));
  for (const auto& animation : exported.animations)
    page.animations.push_back({animation.name, animation.slot, animation.source_name, animation.fps,
                               animation.first_time, animation.frames});
  page.joint_names = exported.joint_names;
  page.notes.push_back(fmt::format("The skeleton: {} ({} joint{}).", exported.skeleton_source, exported.joints,
                                   exported.joints == 1 ? "" : "s"));
  page.notes.insert(page.notes.end(), exported.notes.begin(), exported.notes.end());
  for (const auto& left : exported.left_out) page.notes.push_back("Left out: " + left + ".");
  page.more = !exported.over_budget.empty();
  if (page.more)
    page.notes.push_back(fmt::format("Left out past the page's {} MiB: {} animation{} ({}); play one with animdex view "
                                     "{} --slot S (or --anim NAME) --out PAGE.html.",
                                     kPlayerPageBudget >> 20, exported.over_budget.size(),
                                     exported.over_budget.size() == 1 ? "" : "s",
                                     joined_names(exported.over_budget, exported.over_budget.size()), file.string()));
  return page;
}

reports::FilePlayer quietly(const std::function<std::variant<reports::PlayerPage, int>()>& make) {
  const CapturedFailure captured;
  try {
    auto made = make();
    if (auto* page = std::get_if<reports::PlayerPage>(&made)) return {std::move(*page), ""};
    return {{}, captured.message().empty() ? "it could not be exported" : captured.message()};
  } catch (const std::exception& error) {
    return {{}, error.what()};
  }
}

}  // namespace

std::variant<reports::PlayerPage, int> make_player(const std::filesystem::path& file, const PoseRequest& chosen,
                                                   const std::filesystem::path& model, std::size_t scripts_bytes,
                                                   std::size_t skip) {
  return player_within(file, chosen, model, glb_budget(scripts_bytes), skip, {});
}

reports::FilePlayer player_quietly(const std::filesystem::path& file, const std::filesystem::path& model,
                                   std::size_t scripts_bytes, std::size_t skip) {
  return quietly([&] { return player_within(file, {}, model, glb_budget(scripts_bytes), skip, {}); });
}

bool player_replaceable(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, error))) return true;
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, error))) return false;
  const auto head = read_file_bytes(path, 1u << 20);
  const std::string_view text(reinterpret_cast<const char*>(head.bytes.data()), head.bytes.size());
  return head.error.empty() && text.find(reports::kPlayerGenerator) != std::string_view::npos;
}

reports::FilePlayer compared_side_quietly(const std::filesystem::path& file, const std::filesystem::path& model,
                                          std::size_t scripts_bytes, const EntryFilter& keep) {
  return quietly([&] { return player_within(file, {}, model, glb_budget(scripts_bytes) / 2, 0, keep); });
}

namespace {

struct ViewOptions {
  std::filesystem::path file;
  PoseRequest request;
  std::filesystem::path model;
  std::filesystem::path output;
};

int run_view(const ViewOptions& options, std::ostream& /*out: writes only its file*/) {
  if (same_file(options.output, options.file) || (!options.model.empty() && same_file(options.output, options.model)))
    return fail(kExitUsage, fmt::format("{} is a file being read; give another --out", options.output.string()));
  try {
    auto scripts = player_scripts();
    if (const int* code = std::get_if<int>(&scripts)) return *code;
    const auto& texts = std::get<0>(scripts);
    std::size_t scripts_bytes = 0;
    for (const auto& [name, text] : texts) scripts_bytes += text.size();
    auto made = make_player(options.file, options.request, options.model, scripts_bytes);
    if (const int* code = std::get_if<int>(&made)) return *code;
    const auto& page = std::get<reports::PlayerPage>(made);
    const auto html = reports::player_page_html(page, inlined(texts));
    write_file_checked(options.output, html);
    report_written(options.output, fmt::format("{}, {} animation{}", size_text(html.size()), page.animations.size(),
                                               page.animations.size() == 1 ? "" : "s"));
    for (const auto& note : page.notes) fmt::print(stderr, "animdex: note: {}\n", note);
  } catch (const std::exception& error) {
    return fail(kExitFatal, error);
  }
  return kExitOk;
}

}  // namespace

std::vector<Verb> add_view_verb(CLI::App& app) {
  auto options = std::make_shared<ViewOptions>();
  auto* view = app.add_subcommand(
      "view", "Write one self-contained HTML page that plays a file's animations on their skeleton in 3D (three.js; "
              "opens from file:// with no network): play/pause, a frame slider, a chooser, orbit and zoom");
  view->add_option("file", options->file, "Animation file, or a member of a disc image or archive")->required();
  auto* slot = view->add_option("--slot", options->request.slot, "Only this animation (as for pose)");
  auto* anim = view->add_option("--anim", options->request.animation, "Only this animation, by name");
  slot->excludes(anim);
  view->add_option("--fps", options->request.fps,
                   "The file's frame rate where its keys are frames it does not time (LightWave v1: 30)")
      ->check(positive_number());
  view->add_option("--model", options->model,
                   "The model (file or member) whose skeleton to use (default: the one beside the file the link "
                   "rule finds, as for export --gltf)");
  view->add_option("-o,--out", options->output, "The HTML page to write")->required();
  add_examples(*view, {"animdex view data/lugia.nsbca --out lugia.html",
                       "animdex view obj/P_EX100.mset --model obj/P_EX100.mdlx --out sora.html",
                       "animdex view obj/P_EX100.mset --slot 0 --out sora-idle.html"});
  return {{view, [options](std::ostream& out) { return run_view(*options, out); }}};
}

}  // namespace animdex
