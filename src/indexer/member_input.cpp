#include "indexer/member_input.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <system_error>

#include "containers/container_registry.h"
#include "containers/listing.h"
#include "containers/member_bytes.h"
#include "indexer/file_reader.h"
#include "indexer/file_source.h"
#include "detect/identify.h"

namespace animdex {

namespace fs = std::filesystem;

namespace {


// The longest leading part of `given` that is a file on disk, and the rest ('/'-separated).
std::optional<std::pair<fs::path, std::string>> split_at_file(const fs::path& given) {
  fs::path prefix;
  std::string rest;
  bool in_rest = false;
  for (const auto& component : given) {
    if (in_rest) {
      rest += (rest.empty() ? "" : "/") + component.string();
      continue;
    }
    prefix /= component;
    std::error_code error;
    const auto status = fs::status(prefix, error);
    if (error || !fs::exists(status)) return std::nullopt;
    if (!fs::is_directory(status)) in_rest = true;
  }
  if (!in_rest) return std::nullopt;
  return std::pair{prefix, rest};
}

// The member whose path is `rest` or begins it at a '/', the longest; exact case first.
const Member* find_member(const std::vector<Member>& members, std::string_view rest) {
  const Member* best = nullptr;
  for (const bool exact : {true, false}) {
    for (const auto& member : members) {
      const std::string_view path = member.path;
      if (rest.size() < path.size() || (rest.size() > path.size() && rest[path.size()] != '/')) continue;
      const auto head = rest.substr(0, path.size());
      if ((exact ? head == path : equal_ignoring_case(head, path)) && (!best || path.size() > best->path.size())) best = &member;
    }
    if (best) return best;
  }
  return nullptr;
}

std::string some_members(const std::vector<Member>& members) {
  std::string text;
  for (std::size_t i = 0; i < members.size() && i < 5; ++i) text += (i ? ", " : "") + members[i].path;
  if (members.size() > 5) text += fmt::format(", ... ({} in all; `animdex ls` lists them)", members.size());
  return text.empty() ? "none" : text;
}

}  // namespace

const ContainerModule* input_container(const OpenedInput& input) {
  try {
    return detect_container(read_head(*input.bytes, kContainerDetectBytes), input.bytes->size(), input.name);
  } catch (const ParseFailure&) {
    return nullptr;
  }
}

std::variant<InputListing, std::string> list_input(const OpenedInput& input, const ContainerLimits& limits) {
  try {
    const auto head = read_head(*input.bytes, kContainerDetectBytes);
    const ContainerModule* module = detect_container(head, input.bytes->size(), input.name);
    if (!module)
      return fmt::format("is {}, not a disc image or archive (`animdex formats` lists the containers)",
                         identify(head, input.bytes->size(), input.name));
    const CompanionFinder companion = [&]() -> std::shared_ptr<const ByteSource> {
      if (!input.member) return open_sibling(input.file, module->companion_extension).source;
      if (!input.parent) return nullptr;
      if (input.parent_module == module) return input.parent->data;  // KH2 world tables share KH2.IMG
      for (const auto& sibling : input.parent->members)
        if (sibling.compression == nullptr && !sibling.error &&
            same_stem_with_extension(input.member->path, sibling.path, module->companion_extension))
          return std::make_shared<RangeSource>(input.parent->data, sibling.offset, sibling.stored_size);
      return nullptr;
    };
    auto listed = list_container(*module, input.bytes, input.name, companion, limits);
    if (!listed.ok()) return fmt::format("{} table: {}", module->id, listed.error().message());
    return InputListing{listed.value().data, std::move(listed.value().list.members),
                        std::move(listed.value().list.warnings)};
  } catch (const ParseFailure& failure) {
    return failure.error().message();
  }
}

std::variant<OpenedInput, std::string> open_input(const fs::path& given, const ContainerLimits& limits) {
  fs::path file = given;
  std::string rest;
  std::error_code error;
  if (!fs::exists(given, error)) {
    auto split = split_at_file(given);
    if (!split) return fmt::format("no such file, and no part of the path is a file to look inside");
    file = split->first;
    rest = split->second;
  }
  auto opened = FileSource::open(file);
  if (auto* why = std::get_if<std::string>(&opened)) return fmt::format("{}: {}", file.string(), *why);
  OpenedInput input;
  input.bytes = std::get<std::shared_ptr<FileSource>>(opened);
  input.name = file.filename().string();
  input.file = file;
  // One tally for the whole path, as `index` charges one walked file (ContainerBudget).
  DecompressionTally tally(limits.max_total_decompressed);
  try {
    if (auto whole = open_whole_file_compressed(input.bytes, input.name, limits, tally, known_content)) {
      input.bytes = whole->content.bytes;
      input.compression = whole->member.compression;
    }
  } catch (const ParseFailure& failure) {
    return fmt::format("{}: {}", file.string(), failure.error().message());
  }
  std::string inside = file.string();
  while (!rest.empty()) {
    auto listing = list_input(input, limits);
    if (auto* why = std::get_if<std::string>(&listing)) return fmt::format("{}: {}", inside, *why);
    auto parent = std::make_shared<const InputListing>(std::move(std::get<InputListing>(listing)));
    const Member* member = find_member(parent->members, rest);
    if (!member) return fmt::format("{}: no member {}; its members: {}", inside, rest, some_members(parent->members));
    auto member_bytes = open_member(parent->data, *member, limits, tally, known_content);
    inside += "/" + member->path;
    if (!member_bytes.ok()) return fmt::format("{}: {}", inside, member_bytes.error().message());
    try {
      input.parent_module = detect_container(read_head(*input.bytes, kContainerDetectBytes), input.bytes->size(), input.name);
    } catch (const ParseFailure& failure) {
      return fmt::format("{}: {}", inside, failure.error().message());
    }
    input.bytes = member_bytes.value().bytes;
    input.compression = member_bytes.value().compression;
    input.name = std::string(base_name(member->path));
    input.member = *member;
    input.parent = parent;
    rest = rest.size() > member->path.size() ? rest.substr(member->path.size() + 1) : std::string();
  }
  return input;
}

InputBytes read_input_bytes(const fs::path& given, std::uint64_t max_bytes) {
  InputBytes result;
  std::error_code error;
  if (fs::exists(given, error)) {  // a file: read as the indexer reads one (a FIFO is never opened)
    auto file = read_file_bytes(given, max_bytes + 1);
    if (file.error.empty() && file.file_size > max_bytes)
      file.error = fmt::format("file of {} bytes is over the {}-byte limit for one animation file", file.file_size, max_bytes);
    result.error = std::move(file.error);
    if (!result.error.empty()) return result;
    result.bytes = std::move(file.bytes);
    // A whole file stored LZ is read as index reads it: decoded (issue 35).
    if (result.bytes.size() >= 4 && (result.bytes[0] == std::byte{0x10} || result.bytes[0] == std::byte{0x11})) try {
      const ContainerLimits limits;
      DecompressionTally tally(limits.max_total_decompressed);
      const auto source = std::make_shared<const MemorySource>(std::span<const std::byte>(result.bytes));
      if (auto whole = open_whole_file_compressed(source, given.filename().string(), limits, tally, known_content)) {
        if (whole->member.size > max_bytes) {
          result.error = fmt::format("file decoded to {} bytes is over the {}-byte limit for one animation file",
                                     whole->member.size, max_bytes);
          result.bytes.clear();
          return result;
        }
        const auto& decoded = *whole->content.bytes;
        ByteBuffer bytes(static_cast<std::size_t>(decoded.size()));
        decoded.read(0, bytes);
        result.bytes = std::move(bytes);
        result.compression = whole->member.compression;
      }
    } catch (const ParseFailure&) {  // not LZ after all: the file's own bytes
    }
    return result;
  }
  auto input = open_input(given);
  if (auto* why = std::get_if<std::string>(&input)) {
    result.error = *why;
    return result;
  }
  const auto& source = *std::get<OpenedInput>(input).bytes;
  if (source.size() > max_bytes) {
    result.error = fmt::format("member of {} bytes is over the {}-byte limit for one animation file", source.size(), max_bytes);
    return result;
  }
  try {
    result.bytes.resize(static_cast<std::size_t>(source.size()));  // under max_bytes, checked above
    source.read(0, result.bytes);
  } catch (const ParseFailure& failure) {
    result.bytes.clear();  // `bytes` is empty when there is an error
    result.error = failure.error().message();
  }
  return result;
}

}  // namespace animdex
