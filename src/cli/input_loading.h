#pragma once
// How the verbs that read one animation file (pose, export, convert, plot) load it: a file or a
// container member, the format module that has the capability the verb needs, and the exit code
// and message when there is none. Moved unchanged from curve_verbs.cpp so `plot` loads the same way.
#include <filesystem>
#include <fmt/format.h>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "cli/errors.h"
#include "formats/registry.h"
#include "indexer/member_input.h"
#include "reports/docs_curves.h"

namespace animdex {

// A verb's input, whole: a file or a member of a disc image or archive (`gnt4.iso/fpack/...`),
// within the indexer's --max-file-size default (a larger one is an error, not a silently cut one),
// never blocking on a FIFO (read_file_bytes).
InputBytes read_input(const std::filesystem::path& path);

// 0, or the exit code of a usage error when `path` is a folder: every verb that reads one file
// says so in one line, the same way.
int refuse_folder(const std::filesystem::path& path, std::string_view verb);

// The formats that have a capability, for the message that says which files a verb reads:
// "lw_mot, lw_env and nsbca", every one the registry has, in its order.
template <typename Capability>
std::string formats_with(Capability FormatModule::*capability) {
  std::vector<std::string_view> ids;
  for (const auto& format : registered_formats())
    if (format.*capability) ids.push_back(format.id);
  std::string text;
  for (std::size_t i = 0; i < ids.size(); ++i)
    text += fmt::format("{}{}", i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ", ids[i]);
  return text;
}

// The container a path is (a disc image or archive, or a member that is one), else nullptr. A
// FIFO or device is never opened.
const ContainerModule* container_at(const std::filesystem::path& path);

// Why `verb` does not read this file: what it is, and every format the verb reads.
template <typename Capability>
std::string not_readable(const std::filesystem::path& path, const FormatModule* format,
                         const ContainerModule* container, Capability FormatModule::*capability,
                         std::string_view verb) {
  const auto formats = formats_with(capability);
  if (container)
    return fmt::format("{0}: is a disc image or archive ({1}), not an animation file; {2} reads {3} (give a member "
                       "as {0}/MEMBER; `animdex ls {0}` lists them)",
                       path.string(), container->id, verb, formats);
  const auto what = format ? fmt::format("{}, which {} does not read", format->id, verb) : "not of a known format";
  return fmt::format("{}: is {}; {} reads {} (`animdex formats` lists every format)", path.string(), what, verb,
                     formats);
}

// The input's bytes and the module that can do `verb` on them, or the exit code of why not.
template <typename Capability>
std::variant<std::pair<InputBytes, const FormatModule*>, int> load_for(const std::filesystem::path& path,
                                                                       Capability FormatModule::*capability,
                                                                       std::string_view verb) {
  if (const int code = refuse_folder(path, verb)) return code;
  auto file = read_input(path);
  if (!file.error.empty()) {
    // A disc image is over the size limit for one file: say what it is rather than how big.
    if (const auto* container = container_at(path))
      return fail(kExitUsage, not_readable(path, nullptr, container, capability, verb));
    std::error_code missing;
    return fail(std::filesystem::exists(path, missing) ? kExitFatal : kExitUsage, fmt::format("{}: {}", path.string(), file.error));
  }
  // A container is named first, as `info` names it: an FPK can look like a MOT, which pose reads.
  if (const auto* container = container_at(path))
    return fail(kExitUsage, not_readable(path, nullptr, container, capability, verb));
  const auto* format = detect_format(file.bytes, file.bytes.size());
  if (!format || !(format->*capability)) return fail(kExitUsage, not_readable(path, format, nullptr, capability, verb));
  return std::pair{std::move(file), format};
}

// 0, or the exit code of a usage error when --slot or --anim is given for a format that does not
// choose by it (`--slot` on a DS file: its animations have names, not slots), so no option is
// silently ignored.
int unused_selector(const FormatModule& format, const std::string& slot, const std::string& animation);

// The capability's answer, or the exit code of its error (usage or a broken file).
template <typename T>
std::variant<T, int> answered(Answer<T>&& answer, const std::filesystem::path& path) {
  if (auto* error = std::get_if<CapabilityError>(&answer))
    return fail(error->kind == CapabilityError::Kind::usage ? kExitUsage : kExitFileErrors,
                fmt::format("{}: {}", path.string(), error->message));
  return std::get<T>(std::move(answer));
}

// The same loading without messages, for `report docs`, which reads every indexed file again and
// says on its page why one could not be drawn (reports/docs_curves.h).
reports::FileCurves load_curves_quietly(const std::filesystem::path& path, const CurveRequest& request);

}  // namespace animdex
