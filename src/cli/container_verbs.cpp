// `ls` and `extract`: look inside disc images and archives without indexing them.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <memory>

#include "cli/errors.h"
#include "cli/input_loading.h"
#include "cli/verb.h"
#include "containers/container_budget.h"
#include "containers/container_registry.h"
#include "containers/listing.h"
#include "containers/member_bytes.h"
#include "formats/format.h"
#include "indexer/member_input.h"
#include "output/output_file.h"
#include "output/table_stream.h"
#include "detect/identify.h"

namespace animdex {

namespace {

struct LsOptions {
  std::filesystem::path container;
  bool recursive = false;
  FormatOption format;
};

ResultTable member_table() {
  return {{"path", "format", "size", "stored_size", "offset", "compression", "member_name", "error"}, {}};
}

// What one `ls` may list, decompress and hold in all: the budget `index` gives one walked file
// (ContainerBudget), so a self-nesting image stops with an error instead of listing millions of rows.
struct LsBudget {
  ContainerBudget budget;
  std::string exhausted;  // why the listing stopped, when it did
};

// An aligned format (table, json, markdown) holds the rows until the end: at most this many.
constexpr std::size_t kMaxHeldRows = 100'000;

// One row per member (and, recursively, per member of a member that is a container). A member that
// cannot be opened is a row with its error: the listing goes on, within `budget`.
void list_rows(const OpenedInput& container, const InputListing& listing, const std::string& prefix, bool recursive,
               TableStream& rows, int depth, LsBudget& budget, const std::string& format_name) {
  const ContainerLimits& limits = budget.budget.limits();
  if (auto spent = budget.budget.charge_members(listing.members.size(), prefix.empty() ? "it" : prefix)) {
    budget.exhausted = fmt::format("{} (as `index` lists them): {}", spent->expected, spent->found);
    return;
  }
  DecompressionTally& tally = budget.budget.decompressed();
  const auto parent = std::make_shared<const InputListing>(listing);
  const ContainerModule* parent_module = nullptr;
  try {
    parent_module = detect_container(read_head(*container.bytes, kContainerDetectBytes), container.bytes->size(), container.name);
  } catch (const ParseFailure&) {  // listed already: only a companion lookup needs it
  }
  auto add = [&](std::vector<Cell> row) {
    if (rows.add(std::move(row))) return true;
    budget.exhausted = fmt::format("at most {} rows in --format {} (it aligns them all at once); --format csv, tsv "
                                   "or jsonl lists more",
                                   kMaxHeldRows, format_name);
    return false;
  };
  for (const auto& member : listing.members) try {
    if (!budget.exhausted.empty()) return;
    std::vector<Cell> row{prefix + member.path, std::string("unknown"), static_cast<std::int64_t>(member.size),
                          static_cast<std::int64_t>(member.stored_size), static_cast<std::int64_t>(member.offset),
                          std::string(compression_name(member.compression)), member.stored_name, Cell{}};
    auto opened = open_member(listing.data, member, limits, tally, known_content, kContainerDetectBytes);
    if (!opened.ok()) {
      row[7] = opened.error().message();
      if (!add(std::move(row))) return;
      continue;
    }
    const auto head = read_head(*opened.value().bytes, kContainerDetectBytes);
    const std::string_view what = identify(head, opened.value().size, member.path);
    row[1] = std::string(what);
    row[2] = static_cast<std::int64_t>(opened.value().size);
    row[5] = std::string(compression_name(opened.value().compression));
    if (!recursive || !is_container_format(what) || depth + 1 >= static_cast<int>(limits.max_depth)) {
      if (!add(std::move(row))) return;
      continue;
    }
    // A compressed container is held whole while its members are listed: bounded like index's.
    const std::uint64_t held = opened.value().head_only || opened.value().compression != nullptr
                                   ? opened.value().size : 0;
    if (auto spent = budget.budget.hold(held)) {
      row[7] = spent->message();
      if (!add(std::move(row))) return;
      continue;
    }
    struct Release {  // given back when this member is done, however it ends
      ContainerBudget& budget;
      std::uint64_t bytes;
      ~Release() { budget.release(bytes); }
    } release{budget.budget, held};
    auto whole = opened.value().head_only ? open_member(listing.data, member, limits, tally, known_content) : opened;
    if (!whole.ok()) {
      row[7] = whole.error().message();
      if (!add(std::move(row))) return;
      continue;
    }
    OpenedInput inner{whole.value().bytes, std::string(base_name(member.path)), member, whole.value().compression,
                      container.file, parent, parent_module};
    auto inner_listing = list_input(inner, limits);
    const auto* why = std::get_if<std::string>(&inner_listing);
    if (why) row[7] = *why;
    if (!add(std::move(row))) return;
    if (why) continue;
    list_rows(inner, std::get<InputListing>(inner_listing), prefix + member.path + "/", true, rows, depth + 1, budget,
              format_name);
  } catch (const std::bad_alloc&) {
    throw;  // not this member's error: run_ls stops with it
  } catch (const std::exception& error) {  // a read that fails (the image shrank): this member's row says so
    if (!add({prefix + member.path, std::string("unknown"), static_cast<std::int64_t>(member.size),
              static_cast<std::int64_t>(member.stored_size), static_cast<std::int64_t>(member.offset),
              std::string(compression_name(member.compression)), member.stored_name, std::string(error.what())}))
      return;
  }
}

int run_ls(const LsOptions& options, std::ostream& out) try {
  if (const int code = refuse_folder(options.container, "ls")) return code;
  auto input = open_input(options.container);
  if (auto* why = std::get_if<std::string>(&input)) return fail(kExitUsage, fmt::format("{}: {}", options.container.string(), *why));
  const auto& opened = std::get<OpenedInput>(input);
  auto listing = list_input(opened);
  if (auto* why = std::get_if<std::string>(&listing))  // not a container: usage; a broken one: a file error
    return fail(input_container(opened) ? kExitFileErrors : kExitUsage, fmt::format("{}: {}", options.container.string(), *why));
  for (const auto& warning : std::get<InputListing>(listing).warnings)
    std::fprintf(stderr, "animdex: warning: %s: %s\n", options.container.c_str(), warning.c_str());
  TableStream rows([&out](std::string_view text) { out << text; }, member_table().columns, options.format.value(),
                   !options.format.no_header, kMaxHeldRows);
  LsBudget budget{ContainerBudget(ContainerLimits{}, opened.bytes->size()), {}};
  list_rows(opened, std::get<InputListing>(listing), "", options.recursive, rows, 0, budget, options.format.name);
  rows.finish();
  if (!budget.exhausted.empty())
    return fail(kExitFileErrors, fmt::format("{}: the listing stopped: {}", options.container.string(), budget.exhausted));
  return kExitOk;
} catch (const std::bad_alloc&) {
  return fail(kExitFatal, fmt::format("{}: ran out of memory while listing it", options.container.string()));
}

struct ExtractOptions {
  std::filesystem::path container;
  std::string member;
  std::filesystem::path output;
};

// Hands `source` to `write` by ranges of 1 MiB (a raw member may be gigabytes: KH2.IMG inside a
// DVD image); stops early when `write` says false.
void copy_by_ranges(const ByteSource& source, const std::function<bool(std::string_view)>& write) {
  for (std::uint64_t at = 0; at < source.size();) {
    const auto chunk = source.read_vector(at, std::min<std::uint64_t>(source.size() - at, 1 << 20));
    if (!write(std::string_view(reinterpret_cast<const char*>(chunk.data()), chunk.size()))) return;
    at += chunk.size();
  }
}

// Like every --out (output/output_file.h): a regular file goes to a fresh temporary beside it,
// renamed over it once complete; a device or FIFO is written in place; a folder, or the image
// being read, is refused. `-` is standard output.
int run_extract(const ExtractOptions& options, std::ostream& stdout_stream) {
  // Joined as text: an absolute member path must not replace the container's.
  const std::filesystem::path given = options.container.string() + "/" + options.member;
  if (options.member.empty()) return fail(kExitUsage, "give the member's path inside the container (`animdex ls` lists them)");
  auto input = open_input(given);
  if (auto* why = std::get_if<std::string>(&input)) {
    if (const int code = refuse_folder(options.container, "extract")) return code;
    return fail(kExitUsage, fmt::format("{}: {}", given.string(), *why));
  }
  const auto& opened = std::get<OpenedInput>(input);
  const auto& source = *opened.bytes;
  try {
    if (options.output == "-") {
      copy_by_ranges(source, [&](std::string_view bytes) { return static_cast<bool>(stdout_stream << bytes); });
      if (!flush_succeeded(stdout_stream)) return fail(kExitFatal, "cannot write the output: standard output refused it");
      return kExitOk;
    }
    std::error_code error;
    const auto status = std::filesystem::status(options.output, error);
    if (std::filesystem::is_directory(status))
      return fail(kExitUsage, fmt::format("{} is a folder; give the file to write (e.g. {}/{})", options.output.string(),
                                          options.output.string(), opened.name));
    if (same_file(options.output, opened.file))
      return fail(kExitUsage, fmt::format("{} is the image being read; give another file", options.output.string()));
    OutputFile file(options.output);
    copy_by_ranges(source, [&](std::string_view bytes) {
      file.write(bytes);
      return true;
    });
    file.commit();
  } catch (const std::runtime_error& failure) {
    return fail(kExitFatal, failure);
  } catch (const ParseFailure& failure) {
    return fail(kExitFileErrors, fmt::format("{}: {}", given.string(), failure.error().message()));
  }
  report_written(options.output, fmt::format("{} bytes", source.size()));
  return kExitOk;
}

}  // namespace

std::vector<Verb> add_container_verbs(CLI::App& app) {
  auto ls_options = std::make_shared<LsOptions>();
  auto* ls = app.add_subcommand("ls", "List the members of a disc image or archive (no database)");
  ls->add_option("container", ls_options->container,
                 "The image or archive; a member path inside one also works (gnt4.iso/fpack/chr/nar1000.fpk)")
      ->required();
  ls->add_flag("-r,--recursive", ls_options->recursive, "Also list the members of members that are containers");
  add_format_option(*ls, ls_options->format);
  add_examples(*ls, {"animdex ls gnt4.iso --recursive", "animdex ls a/2/4/3 --format json",
                     "animdex ls gnt4.iso/fpack/chr/nar1000.fpk"});

  auto extract_options = std::make_shared<ExtractOptions>();
  auto* extract = app.add_subcommand("extract", "Write one member of a disc image or archive, decompressed, to a file");
  extract->add_option("container", extract_options->container, "The image or archive")->required();
  extract->add_option("member", extract_options->member, "The member's path inside it, as `ls` prints it")->required();
  extract->add_option("-o,--out", extract_options->output, "The file to write (`-`: standard output)")->required();
  add_examples(*extract, {"animdex extract gnt4.iso fpack/chr/nar1000.fpk/chr/nar/0000.mot --out nar-0000.mot"});
  return {{ls, [ls_options](std::ostream& out) { return run_ls(*ls_options, out); }},
          {extract, [extract_options](std::ostream& out) { return run_extract(*extract_options, out); }}};
}

}  // namespace animdex
