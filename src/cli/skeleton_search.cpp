#include "cli/skeleton_search.h"

#include <fmt/format.h>

#include "cli/errors.h"
#include "cli/exit_codes.h"
#include "cli/input_loading.h"
#include "containers/member_bytes.h"
#include "core/parse_budget.h"
#include "detect/identify.h"
#include "indexer/file_reader.h"
#include "indexer/rows.h"
#include "output/output_file.h"

namespace animdex {

namespace {

// The skeletons in `bytes` of a model format, each named for messages after `source`.
std::vector<rig::SkeletonCandidate> candidates_in(std::span<const std::byte> bytes, const FormatModule& format,
                                                  const std::string& source, const std::string& name,
                                                  std::string* problem = nullptr) {
  const ScopedParseBudget budget;
  auto answer = format.skeletons(bytes, SkeletonRequest{name});
  std::vector<rig::SkeletonCandidate> found;
  if (const auto* error = std::get_if<CapabilityError>(&answer)) {
    if (problem) *problem = error->message;
    return found;
  }
  auto& skeletons = std::get<std::vector<model::Skeleton>>(answer);
  for (auto& skeleton : skeletons) {
    if (auto broken = model::validate(skeleton)) {
      if (problem) *problem = *broken;
      continue;
    }
    const auto label = skeletons.size() > 1 ? fmt::format("{} (model '{}')", source, skeleton.name) : source;
    found.push_back({label, std::move(skeleton)});
  }
  return found;
}

std::string file_name_of(const std::filesystem::path& path) { return path.filename().string(); }

void add_folder_models(const std::filesystem::path& animation, std::vector<rig::SkeletonCandidate>& found) {
  std::error_code error;
  const auto folder = animation.has_parent_path() ? animation.parent_path() : std::filesystem::path(".");
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    if (!it->is_regular_file(error) || same_file(it->path(), animation)) continue;
    auto head = read_file_bytes(it->path(), kDetectBytes);
    const auto size = it->file_size(error);
    if (error) { error.clear(); continue; }
    const auto* format = head.error.empty() ? detect_format(head.bytes, size) : nullptr;
    if (!format || !format->skeletons) continue;
    const auto whole = read_input(it->path());
    if (!whole.error.empty()) continue;
    auto models = candidates_in(whole.bytes, *format, it->path().string(), file_name_of(it->path()));
    std::move(models.begin(), models.end(), std::back_inserter(found));
  }
}

std::string folder_of(const std::string& member_path) {
  const auto slash = member_path.rfind('/');
  return slash == std::string::npos ? std::string() : member_path.substr(0, slash);
}

void add_member_models(const std::filesystem::path& animation, const OpenedInput& opened,
                       std::vector<rig::SkeletonCandidate>& found) {
  const auto& self = *opened.member;
  const auto given = animation.generic_string();
  const auto container = given.substr(0, given.size() - std::min(given.size(), self.path.size() + 1));
  const ContainerLimits limits;
  DecompressionTally tally(limits.max_total_decompressed);
  for (const auto& member : opened.parent->members) {
    if (member.path == self.path || folder_of(member.path) != folder_of(self.path)) continue;
    auto head = open_member(opened.parent->data, member, limits, tally, &known_content, kDetectBytes);
    if (!head) continue;
    const auto head_bytes = head.value().bytes->read_vector(0, std::min<std::uint64_t>(head.value().bytes->size(), kDetectBytes));
    const auto* format = detect_format(head_bytes, head.value().size);
    if (!format || !format->skeletons) continue;
    auto whole = open_member(opened.parent->data, member, limits, tally, &known_content);
    if (!whole || whole.value().size > kDefaultMaxFileSize) continue;
    const auto bytes = whole.value().bytes->read_vector(0, whole.value().bytes->size());
    auto models = candidates_in(bytes, *format, container + "/" + member.path, file_name_of(member.path));
    std::move(models.begin(), models.end(), std::back_inserter(found));
  }
}

}  // namespace

std::variant<std::vector<rig::SkeletonCandidate>, int> skeletons_of_model(const std::filesystem::path& model) {
  auto input = load_for(model, &FormatModule::skeletons, "--model");
  if (const int* code = std::get_if<int>(&input)) return *code;
  const auto& [file, format] = std::get<0>(input);
  std::string problem;
  auto found = candidates_in(file.bytes, *format, model.string(), file_name_of(model), &problem);
  if (!found.empty()) return found;
  if (!problem.empty()) return fail(kExitFileErrors, fmt::format("{}: {}", model.string(), problem));
  return fail(kExitUsage, fmt::format("{}: is a {} model without a skeleton (a map or shadow model)", model.string(),
                                      format->id));
}

std::vector<rig::SkeletonCandidate> skeletons_beside(const std::filesystem::path& animation) {
  std::vector<rig::SkeletonCandidate> found;
  const auto input = open_input(animation);
  const auto* opened = std::get_if<OpenedInput>(&input);
  if (opened && opened->member && opened->parent) add_member_models(animation, *opened, found);
  else add_folder_models(animation, found);
  return found;
}

}  // namespace animdex
