#include "cli/input_loading.h"

#include <system_error>

#include "core/content_hash.h"
#include "core/parse_budget.h"
#include "indexer/rows.h"

namespace animdex {

InputBytes read_input(const std::filesystem::path& path) { return read_input_bytes(path, kDefaultMaxFileSize); }

const ContainerModule* container_at(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error)) return nullptr;
  const auto input = open_input(path);
  const auto* opened = std::get_if<OpenedInput>(&input);
  return opened ? input_container(*opened) : nullptr;
}

reports::FileCurves load_curves_quietly(const std::filesystem::path& path, const CurveRequest& request) {
  const ScopedParseBudget budget;  // the indexer's per-file memory budget, as every verb that parses
  reports::FileCurves result;
  const auto file = read_input(path);
  if (!file.error.empty()) {
    result.problem = "it is no longer where it was indexed, or cannot be read there";
    return result;
  }
  result.content_hash = hash_bytes(file.bytes);
  const auto* format = detect_format(file.bytes, file.bytes.size());
  if (!format || !format->curves) {
    result.problem = format ? fmt::format("animdex draws no curves from {} files", format->id)
                            : "it is no longer of a known format";
    return result;
  }
  auto answer = format->curves(file.bytes, request);
  if (const auto* error = std::get_if<CapabilityError>(&answer)) {
    result.problem = "its curves could not be evaluated: " + error->message;
    return result;
  }
  result.animations = std::get<std::vector<AnimationCurves>>(std::move(answer));
  return result;
}

int refuse_folder(const std::filesystem::path& path, std::string_view verb) {
  std::error_code error;
  if (!std::filesystem::is_directory(path, error)) return 0;
  return fail(kExitUsage, fmt::format("{}: is a folder; {} reads one file, or one member of an image (IMAGE/MEMBER)",
                                      path.string(), verb));
}

int unused_selector(const FormatModule& format, const std::string& slot, const std::string& animation) {
  const auto refuse = [&](std::string_view option, std::string_view value) {
    const auto& help = format.help;
    const std::string other = option == "--slot" ? (help.animation.empty() ? "" : fmt::format("--anim ({})", help.animation))
                                                 : (help.slot.empty() ? "" : fmt::format("--slot ({})", help.slot));
    return fail(kExitUsage, fmt::format("{} {}: {} files do not choose animations by {}; {}", option, value, format.id,
                                        option, other.empty() ? fmt::format("leave out {}", option)
                                                              : fmt::format("choose with {}", other)));
  };
  if (!slot.empty() && format.help.slot.empty()) return refuse("--slot", slot);
  if (!animation.empty() && format.help.animation.empty()) return refuse("--anim", animation);
  return 0;
}

}  // namespace animdex
