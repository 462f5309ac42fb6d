#include "indexer/pipeline.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <malloc.h>
#include <memory>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>
#include <spdlog/spdlog.h>
#include <string>

#include "containers/container_registry.h"
#include "db/database.h"
#include "indexer/flight_budget.h"
#include "indexer/scan_queue.h"
#include "indexer/scan_rows.h"

namespace animdex {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// This process's peak resident memory since it started (VmHWM in /proc/self/status), or "unknown"
// off Linux. Unlike the rusage ru_maxrss a parent reads, it does not count the pages a forking
// parent had before exec.
std::string peak_resident_text() {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (!status) return "unknown";
  char line[256];
  unsigned long long kib = 0;
  bool found = false;
  while (!found && std::fgets(line, sizeof line, status)) found = std::sscanf(line, "VmHWM: %llu kB", &kib) == 1;
  std::fclose(status);
  return found ? fmt::format("{:.1f} MiB", static_cast<double>(kib) / 1024.0) : "unknown";
}

// One line on stderr, rewritten at most ten times a second.
class ProgressLine {
 public:
  ProgressLine(bool enabled, std::size_t total) : enabled_(enabled), total_(total) {}
  ~ProgressLine() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
  }
  void update(const DumpTotals& totals) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (shown_ && now - last_ < std::chrono::milliseconds(100) &&
        static_cast<std::size_t>(totals.files - totals.members) != total_)
      return;
    last_ = now;
    shown_ = true;
    std::fprintf(stderr, "\r\033[Kindexing %lld/%zu files, %lld members of images and archives, %lld animations, %lld errors",
                 static_cast<long long>(totals.files - totals.members), total_, static_cast<long long>(totals.members),
                 static_cast<long long>(totals.animations), static_cast<long long>(totals.errors));
    std::fflush(stderr);
  }

 private:
  bool enabled_;
  std::size_t total_;
  bool shown_ = false;
  Clock::time_point last_{};
};

}  // namespace

std::string describe_roots(const std::vector<std::filesystem::path>& roots) {
  std::vector<std::string> normalized;
  for (const auto& root : roots) {
    auto normal = std::filesystem::absolute(root).lexically_normal();
    // "dump" and "dump/" are one root, and `index a b` is `index b a`: a label's roots are
    // compared before it is replaced, and looked up when no label is given.
    if (!normal.has_filename() && normal.has_parent_path() && normal != normal.root_path()) normal = normal.parent_path();
    normalized.push_back(normal.string());
  }
  std::sort(normalized.begin(), normalized.end());
  std::string text;
  for (const auto& root : normalized) text += (text.empty() ? "" : "\n") + root;
  return text;
}

std::optional<std::string> label_of_roots(const std::filesystem::path& database,
                                          const std::vector<std::filesystem::path>& roots) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(database, error)) return std::nullopt;
  try {
    auto db = open_read_only(database);
    SQLite::Statement find(db, "SELECT label FROM dumps WHERE root = ? ORDER BY id LIMIT 1");
    find.bind(1, describe_roots(roots));
    if (find.executeStep()) return find.getColumn(0).getString();
  } catch (const std::exception&) {  // not a database we can read: `index` itself says why
  }
  return std::nullopt;
}

namespace {

constexpr std::uint64_t kInFlightBudget = 160ULL << 20;

// Files in flight (read, parsed, or waiting for the writer) bound memory: each holds at most its
// bytes (max_file_size) or its decoded model (parse_budget), so tokens x (both) stays within
// kInFlightBudget. With the defaults that is 3 files; smaller limits allow more, up to 4 per thread.
std::size_t tokens_in_flight(const IndexOptions& options, int threads) {
  const std::uint64_t per_file = std::max<std::uint64_t>(options.max_file_size + options.parse_budget, 1);
  const std::uint64_t fit = kInFlightBudget / per_file;
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(fit, 2, static_cast<std::uint64_t>(threads) * 4 + 1));
}

// How many files may be in flight and what bounds their memory (flight_budget.h). With two threads
// or more, but no more than the worst cases kInFlightBudget allows (3 with the defaults), 4 a
// thread: each thread parses one file within its worst case, and files waiting for the writer
// are charged what they hold. Otherwise as many files as worst cases fit, which bounds the parses
// too, and none waits (one thread scans, parses and writes each file before the next).
struct FlightPlan {
  std::size_t tokens = 0;
  std::uint64_t waiting_bytes = UINT64_MAX;
};

FlightPlan flight_plan(const IndexOptions& options, int threads) {
  const std::size_t worst_cases = tokens_in_flight(options, threads);
  const auto concurrency = std::min<std::size_t>(
      static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()),
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
  if (threads < 2 || concurrency < 2 || static_cast<std::size_t>(threads) > worst_cases) return {worst_cases, UINT64_MAX};
  return {static_cast<std::size_t>(threads) * 4 + 1, options.waiting_budget};
}

// One file through the pipeline: its scan item, then its rows, and what the budget charged it:
// what it holds itself, and the containers the files before it may still hold (released only
// when it is written, after them).
struct Flight {
  std::shared_ptr<ScanItem> item;
  std::shared_ptr<FileRow> row;
  std::uint64_t charge = 0;
  std::uint64_t containers_charge = 0;
};

// A stage that throws ends the pipeline: nothing may stay waiting on the budget meanwhile.
template <typename Work>
auto abandoning_on_failure(FlightBudget& budget, Work&& work) {
  try {
    return work();
  } catch (...) {
    budget.abandon();
    throw;
  }
}

}  // namespace

void keep_freed_memory_for_reuse() {
#ifdef __GLIBC__
  // Either may be refused (mallopt returns 0, e.g. where huge-page tunables cap the heap): then
  // glibc keeps its defaults, which are correct, only slower.
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);   // blocks under 32 MiB (a file under the default 16 MiB limit) from the heap
  ::mallopt(M_TRIM_THRESHOLD, 256 << 20);  // heaps shrink only past 256 MiB free
#endif
}

IndexSummary run_index(const IndexOptions& options) {
  const auto started = Clock::now();
  const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));

  IndexSummary summary;
  auto walked = walk_roots(options.roots);
  summary.warnings = std::move(walked.warnings);
  const auto& entries = walked.entries;

  const ReferenceData& reference = ReferenceData::embedded();
  auto db = open_for_writing(options.database, options.lock_wait);
  DumpSettings settings{options.label, describe_roots(options.roots), options.incremental, options.key_storage,
                        options.lock_wait, std::nullopt, options.replace, options.allow_overlap};
  if (options.roots.size() == 1 && entries.size() == 1 && std::filesystem::is_regular_file(options.roots.front()))
    settings.single_file_root = entries.front().relative_path;  // an image given alone
  DumpWriter writer(db, settings, reference);
  ProgressLine progress(options.show_progress, entries.size());
  const ProcessOptions process_options{options.max_file_size, options.parse_time_limit, options.parse_budget,
                                       options.key_storage, /*release_encoded_keys=*/true};
  const FlightPlan plan = flight_plan(options, threads);
  FlightBudget budget(plan.waiting_bytes);
  const ContainerLimits limits = options.container_limits;
  ScanQueue queue(entries, limits, [&](const WalkEntry& entry) {
    const PreviousFile* previous = writer.previous_file(entry.relative_path);
    if (!previous) return PreviousState::none;
    // A whole file stored compressed records its decompressed size; its size on disk is stored_size.
    if (previous->stored_size.value_or(previous->size) != entry.size || previous->mtime_ns != entry.mtime_ns)
      return PreviousState::changed;
    if (!is_container_format(previous->format)) return PreviousState::unchanged_file;
    return previous->status == FileStatus::ok ? PreviousState::unchanged_container : PreviousState::changed;
  }, [&](const std::string& path) -> std::optional<PreviousMember> {
    const PreviousFile* previous = writer.previous_file(path);
    // An error is read again (this run's limits or build may differ); an animation file or a file
    // of no known format is kept as it was.
    if (!previous || !previous->member || previous->status == FileStatus::error || !previous->stored_hash ||
        !previous->stored_size)
      return std::nullopt;
    return PreviousMember{*previous->stored_hash, previous->size, *previous->stored_size};
  }, options.max_file_size);
  IndexPhases& phases = summary.phases;
  phases.setup_seconds = seconds_since(started);
  // The parallel stage: a file's rows (reading, decompressing and parsing it), or an unchanged
  // file's note that its rows stay.
  const auto rows_of = [&](const ScanItem& item) {
    const WalkEntry& entry = entries[item.entry_index];
    const PreviousFile* previous = writer.previous_file(item.path);
    if (item.unchanged) {
      auto row = std::make_shared<FileRow>();
      row->reuse = Reuse::unchanged_stat;
      row->path = item.path;
      row->size = previous ? previous->size : entry.size;
      row->mtime_ns = entry.mtime_ns;
      row->format = previous ? previous->format : "unknown";
      row->keep_members = item.keep_members;
      return row;
    }
    return std::make_shared<FileRow>(process_scan_item(
        item, entry, reference, process_options, limits,
        previous && previous->status != FileStatus::error ? previous->content_hash : std::nullopt));
  };
  tbb::parallel_pipeline(
      plan.tokens,
      tbb::make_filter<void, std::shared_ptr<Flight>>(
          tbb::filter_mode::serial_in_order,
          [&](tbb::flow_control& control) {
            return abandoning_on_failure(budget, [&]() -> std::shared_ptr<Flight> {
              if (!budget.wait_for_room()) {
                control.stop();
                return nullptr;
              }
              const auto scan_started = Clock::now();
              auto item = queue.next();
              phases.scan_seconds += seconds_since(scan_started);
              if (!item) {
                control.stop();
                return nullptr;
              }
              auto flight = std::make_shared<Flight>();
              flight->charge = item->decoded ? item->decoded->size() : 0;  // a KH2 member the scan decoded
              flight->containers_charge = queue.take_finished_container_bytes();
              flight->item = std::make_shared<ScanItem>(std::move(*item));
              budget.enter(flight->charge + flight->containers_charge);
              return flight;
            });
          }) &
          tbb::make_filter<std::shared_ptr<Flight>, std::shared_ptr<Flight>>(
              tbb::filter_mode::parallel,
              [&](std::shared_ptr<Flight> flight) {
                return abandoning_on_failure(budget, [&] {
                  flight->row = rows_of(*flight->item);
                  // The members' sources share the container's: let it go as soon as the last one is done.
                  flight->item.reset();
                  const std::uint64_t held = held_bytes(*flight->row);
                  budget.parsed(flight->charge, held);
                  flight->charge = held;
                  return flight;
                });
              }) &
          tbb::make_filter<std::shared_ptr<Flight>, void>(
              tbb::filter_mode::serial_in_order,
              [&](const std::shared_ptr<Flight>& flight) {
                abandoning_on_failure(budget, [&] {
                  const auto write_started = Clock::now();
                  writer.write(std::move(flight->row));
                  phases.writer_seconds += seconds_since(write_started);
                  budget.leave(flight->charge + flight->containers_charge);
                  progress.update(writer.totals());
                });
              }));
  for (const auto& warning : summary.warnings) writer.write_warning(warning);
  const auto end_started = Clock::now();
  phases.files_seconds = std::chrono::duration<double>(end_started - started).count() - phases.setup_seconds;
  writer.finish();
  phases.end_seconds = seconds_since(end_started);
  summary.totals = writer.totals();
  summary.seconds = seconds_since(started);
  summary.kept_undecompressed = queue.kept_undecompressed();
  if (summary.kept_undecompressed > 0)
    spdlog::info("{} compressed member{} of changed images kept by the hash of {} stored bytes, not decompressed",
                 summary.kept_undecompressed, summary.kept_undecompressed == 1 ? "" : "s",
                 summary.kept_undecompressed == 1 ? "its" : "their");
  spdlog::info("index took {:.3f} s with {} thread{} and up to {} files in flight: set-up {:.3f} s, files {:.3f} s (the "
               "serial scan {:.3f} s and the serial writer {:.3f} s of it), then indexes, post-index SQL and commit "
               "{:.3f} s; peak memory {}",
               summary.seconds, threads, threads == 1 ? "" : "s", plan.tokens, phases.setup_seconds,
               phases.files_seconds, phases.scan_seconds, phases.writer_seconds, phases.end_seconds,
               peak_resident_text());
  return summary;
}

}  // namespace animdex
