// animdex benchmarks: every figure is a ratio against a baseline measured in the same run
// (bench/RESULTS.md explains each). `animdex_bench --smoke` runs everything on a tiny corpus
// (what CI does); without it the corpus is GNT4-sized, and 10x that for memory and latency.
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_corpus.h"
#include "cli/commands.h"
#include "core/embedded.h"
#include "db/database.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "formats/registry.h"
#include "indexer/file_reader.h"
#include "indexer/pipeline.h"
#include "indexer/rows.h"
#include "indexer/table_columns.h"

namespace fs = std::filesystem;
using namespace animdex;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

template <typename Work>
double timed(Work&& work) {
  const auto start = Clock::now();
  work();
  return seconds_since(start);
}

struct Figure {
  std::string name;
  std::string measured;
  std::string baseline;
  double ratio;
  std::string target;
  bool met;
};

std::vector<WalkEntry> files_under(const fs::path& root) { return walk_roots({root}).entries; }

std::vector<std::vector<std::byte>> load_all(const std::vector<WalkEntry>& files) {
  std::vector<std::vector<std::byte>> contents;
  for (const auto& file : files) contents.push_back(read_file_bytes(file.absolute_path, 1ULL << 30).bytes);
  return contents;
}

std::size_t parse_all(const std::vector<std::vector<std::byte>>& contents, std::size_t begin, std::size_t end) {
  std::size_t keys = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const auto& bytes = contents[i];
    const auto* format = detect_format(bytes, bytes.size());
    if (!format) continue;
    auto parsed = format->parse(bytes);
    if (!parsed.ok()) continue;
    for (const auto& animation : parsed.value().animations)
      for (const auto& track : animation.tracks) keys += track.keys.size();
  }
  return keys;
}

double parse_with_threads(const std::vector<std::vector<std::byte>>& contents, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  return timed([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, contents.size(), 1),
                      [&](const tbb::blocked_range<std::size_t>& range) { parse_all(contents, range.begin(), range.end()); });
  });
}

// The SQLite floor: the same rows, inserted with plain prepared statements in one transaction,
// into a database with the same schema and pragmas. Nothing else: no walk, read, parse or hashing.
double sqlite_floor(const std::vector<FileRow>& rows, const fs::path& path) {
  fs::remove(path);
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -32768;", nullptr,
               nullptr, nullptr);
  sqlite3_exec(db, schema_ddl().c_str(), nullptr, nullptr, nullptr);
  auto prepare = [&](std::string_view table, std::span<const std::string_view> columns) {
    sqlite3_stmt* statement = nullptr;
    sqlite3_prepare_v2(db, table_columns::insert_sql(table, columns).c_str(), -1, &statement, nullptr);
    return statement;
  };
  auto step = [](sqlite3_stmt* statement) {
    sqlite3_step(statement);
    sqlite3_reset(statement);
  };
  // Bound by column name, as the writer binds them; every column the writer fills is filled here.
  auto at = [](sqlite3_stmt* s, const char* column) { return sqlite3_bind_parameter_index(s, column); };
  // One binder for every column type: text, integer or real, NULL when an optional is empty.
  auto bind = [&](sqlite3_stmt* s, const char* column, const auto& given) {
    const int index = at(s, column);
    const auto bind_value = [&](const auto& value) {
      using T = std::decay_t<decltype(value)>;
      if constexpr (std::is_same_v<T, std::string>) sqlite3_bind_text(s, index, value.c_str(), -1, SQLITE_TRANSIENT);
      else if constexpr (std::is_floating_point_v<T>) sqlite3_bind_double(s, index, value);
      else sqlite3_bind_int64(s, index, static_cast<sqlite3_int64>(value));
    };
    if constexpr (requires { given.has_value(); }) {
      if (given) bind_value(*given);
      else sqlite3_bind_null(s, index);
    } else {
      bind_value(given);
    }
  };
  const double seconds = timed([&] {
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    sqlite3_exec(db, "INSERT INTO dumps(label, root, indexed_at) VALUES ('floor', '/', 'now')", nullptr, nullptr, nullptr);
    auto* file_insert = prepare("files", table_columns::kFiles);
    auto* animation_insert = prepare("animations", table_columns::kAnimations);
    auto* track_insert = prepare("bone_tracks", table_columns::kBoneTracks);
    auto* key_insert = prepare("keyframes", table_columns::kKeyframes);
    for (const auto& row : rows) {
      bind(file_insert, ":dump_id", std::int64_t{1});
      bind(file_insert, ":path", row.path);
      bind(file_insert, ":character", row.character);
      bind(file_insert, ":format", row.format);
      bind(file_insert, ":size", row.size);
      bind(file_insert, ":mtime_ns", row.mtime_ns);
      bind(file_insert, ":content_hash", row.content_hash);
      bind(file_insert, ":status", std::string(status_name(row.status)));
      bind(file_insert, ":error", row.error);
      bind(file_insert, ":error_offset", row.error_offset);
      bind(file_insert, ":animation_count", row.model.animations.size());
      bind(file_insert, ":parse_ms", row.parse_ms);
      step(file_insert);
      const auto file_id = sqlite3_last_insert_rowid(db);
      for (std::size_t a = 0; a < row.model.animations.size(); ++a) {
        const auto& animation = row.model.animations[a];
        const auto& extra = row.animations[a];
        bind(animation_insert, ":file_id", file_id);
        bind(animation_insert, ":slot", animation.slot);
        bind(animation_insert, ":motion_id", animation.motion_id);
        bind(animation_insert, ":name", extra.name);
        bind(animation_insert, ":play_speed", animation.play_speed);
        bind(animation_insert, ":end_time", animation.end_time);
        bind(animation_insert, ":frame_count", animation.frame_count);
        bind(animation_insert, ":track_count", animation.tracks.size());
        bind(animation_insert, ":key_count", extra.key_count);
        bind(animation_insert, ":content_hash", extra.content_hash);
        bind(animation_insert, ":shape_hash", extra.shape_hash);
        step(animation_insert);
        const auto animation_id = sqlite3_last_insert_rowid(db);
        for (std::size_t t = 0; t < animation.tracks.size(); ++t) {
          const auto& track = animation.tracks[t];
          bind(track_insert, ":animation_id", animation_id);
          bind(track_insert, ":track_index", t);
          bind(track_insert, ":bone_id", track.bone_id);
          bind(track_insert, ":bone_name", extra.tracks[t].bone_name);
          bind(track_insert, ":flags", track.flags);
          bind(track_insert, ":track_flags", track.track_flags);
          bind(track_insert, ":channels", track.channels);
          bind(track_insert, ":value_encoding", track.value_encoding);
          bind(track_insert, ":key_count", track.keys.size());
          bind(track_insert, ":total_time", track.total_time);
          bind(track_insert, ":content_hash", extra.tracks[t].content_hash);
          step(track_insert);
          const auto track_id = sqlite3_last_insert_rowid(db);
          // The hot loop binds by index, as the writer's does: the indexes of the names, looked up once.
          const int track_at = at(key_insert, ":track_id"), index_at = at(key_insert, ":key_index"),
                    time_at = at(key_insert, ":time"), frame_at = at(key_insert, ":frame"), x_at = at(key_insert, ":x"),
                    y_at = at(key_insert, ":y"), z_at = at(key_insert, ":z"), w_at = at(key_insert, ":w");
          const auto value = [&](int index, const std::optional<double>& v) {
            if (v) sqlite3_bind_double(key_insert, index, *v);
            else sqlite3_bind_null(key_insert, index);
          };
          for (std::size_t k = 0; k < track.keys.size(); ++k) {
            const auto& key = track.keys[k];
            sqlite3_bind_int64(key_insert, track_at, track_id);
            sqlite3_bind_int64(key_insert, index_at, static_cast<sqlite3_int64>(k));
            sqlite3_bind_double(key_insert, time_at, key.time);
            if (key.frame) sqlite3_bind_int64(key_insert, frame_at, *key.frame);
            else sqlite3_bind_null(key_insert, frame_at);
            value(x_at, key.x);
            value(y_at, key.y);
            value(z_at, key.z);
            value(w_at, key.w);
            step(key_insert);
          }
        }
      }
    }
    for (auto* statement : {file_insert, animation_insert, track_insert, key_insert}) sqlite3_finalize(statement);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  });
  sqlite3_close(db);
  return seconds;
}

IndexSummary index_tree(const fs::path& root, const fs::path& database, bool incremental, bool keyframes = true) {
  IndexOptions options;
  options.roots = {root};
  options.database = database;
  options.label = "bench";
  options.threads = 2;
  options.incremental = incremental;
  options.store_keyframes = keyframes;
  return run_index(options);
}

// Database size with its WAL folded in.
std::uint64_t database_bytes(const fs::path& path) {
  {
    SQLite::Database db(path.string(), SQLite::OPEN_READWRITE);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  std::uint64_t bytes = fs::file_size(path);
  if (fs::exists(path.string() + "-wal")) bytes += fs::file_size(path.string() + "-wal");
  return bytes;
}

// Peak resident memory of `animdex index` over `root`, in MiB, from the kernel's accounting.
double peak_memory_mib(const fs::path& root, const fs::path& database) {
  fs::remove(database);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl(ANIMDEX_BINARY, "animdex", "index", root.c_str(), "--db", database.c_str(), "--quiet", "--threads", "2",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

double median_query_ms(const fs::path& database, int runs) {
  auto db = open_read_only(database);
  const auto* query = find_named_query("bone-users");
  const auto bindings = bind_parameters(*query, {{"bone", "118"}});
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) times.push_back(1000.0 * timed([&] { run_read_only_query(db, query->sql, bindings); }));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// A KH2 Player motion set of `slots` dummy slots (the shape that made `info` quadratic).
fs::path write_dummy_set(const fs::path& path, std::uint32_t slots) {
  std::vector<std::byte> bytes(16 + 16 * std::size_t{slots}, std::byte{0});
  const unsigned char header[16] = {'B', 'A', 'R', 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
  for (std::size_t i = 0; i < 16; ++i) bytes[i] = std::byte{header[i]};
  for (int i = 0; i < 4; ++i) bytes[4 + i] = static_cast<std::byte>((slots >> (8 * i)) & 0xFF);
  for (std::size_t e = 0; e < slots; ++e) bytes[16 + 16 * e] = std::byte{17};  // Anb, size 0: a dummy
  std::FILE* file = std::fopen(path.c_str(), "wb");
  std::fwrite(bytes.data(), 1, bytes.size(), file);
  std::fclose(file);
  return path;
}

double info_seconds(const fs::path& file) {
  InfoOptions options;
  options.file = file;
  std::ostringstream sink;
  int code = 0;
  const double seconds = timed([&] { code = run_info(options, sink); });
  // A set over the parse budget fails fast: such a time would measure nothing.
  if (code != 0) throw std::runtime_error(fmt::format("info on {} exited {}", file.string(), code));
  return seconds;
}

std::string mib(std::uint64_t bytes) { return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20)); }

}  // namespace

int main(int argc, char** argv) {
  bool smoke = false;
  fs::path work = fs::temp_directory_path() / "animdex-bench";
  fs::path corpus_only;
  int scale = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--smoke") smoke = true;
    else if (arg == "--dir" && i + 1 < argc) work = argv[++i];
    else if (arg == "--write-corpus" && i + 1 < argc) corpus_only = argv[++i];
    else if (arg == "--scale" && i + 1 < argc) scale = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: animdex_bench [--smoke] [--dir DIR]\n"
                           "       animdex_bench --write-corpus DIR [--scale N]   (only write the corpus, N x GNT4 size)\n");
      return 2;
    }
  }
  if (!corpus_only.empty()) {
    bench::CorpusSpec spec;
    spec.characters *= scale;
    const auto written = bench::write_corpus(corpus_only, spec);
    std::printf("wrote %llu files, %s, %llu keys under %s\n", static_cast<unsigned long long>(written.files),
                mib(written.bytes).c_str(), static_cast<unsigned long long>(written.keys), corpus_only.c_str());
    return 0;
  }
  fs::remove_all(work);
  fs::create_directories(work);
  bench::CorpusSpec spec;
  if (smoke) spec = {3, 12, 1};
  bench::CorpusSpec big = spec;
  big.characters *= 10;
  const auto corpus = bench::write_corpus(work / "corpus-1x", spec);
  std::fprintf(stderr, "corpus 1x: %llu files, %s, %llu animations, %llu keys\n",
               static_cast<unsigned long long>(corpus.files), mib(corpus.bytes).c_str(),
               static_cast<unsigned long long>(corpus.animations), static_cast<unsigned long long>(corpus.keys));
  std::vector<Figure> figures;
  const auto corpus10 = bench::write_corpus(work / "corpus-10x", big);
  std::fprintf(stderr, "corpus 10x: %llu files, %s, %llu keys\n", static_cast<unsigned long long>(corpus10.files),
               mib(corpus10.bytes).c_str(), static_cast<unsigned long long>(corpus10.keys));
  // (e) peak memory, 1x and 10x: bounded by the pipeline's tokens, not by the corpus. Measured first,
  // while this process is small: the kernel carries a parent's peak over fork and exec into the child's.
  const double memory_1x = peak_memory_mib(work / "corpus-1x", work / "memory-1x.db");
  const auto database10 = work / "index-10x.db";
  const double memory_10x = peak_memory_mib(work / "corpus-10x", database10);
  figures.push_back({"e. peak memory of animdex index, 10x corpus vs 1x corpus", fmt::format("{:.1f} MiB", memory_10x),
                     fmt::format("{:.1f} MiB", memory_1x), memory_10x / memory_1x, "< 256 MiB", memory_10x < 256});


  // (a) parse-only against a raw read of the same files (both single-threaded, page cache warm).
  const auto files = files_under(work / "corpus-1x");
  auto contents = load_all(files);
  volatile std::uint64_t checksum = 0;
  const double read_seconds = timed([&] {
    for (const auto& file : files) {
      const auto bytes = read_file_bytes(file.absolute_path, 1ULL << 30).bytes;
      std::uint64_t sum = 0;
      for (auto b : bytes) sum += static_cast<std::uint8_t>(b);
      checksum = checksum + sum;
    }
  });
  const double parse_seconds = timed([&] { parse_all(contents, 0, contents.size()); });
  figures.push_back({"a. parse (detect + parse + model, 1 thread) vs raw read", fmt::format("{:.3f} s", parse_seconds),
                     fmt::format("{:.3f} s", read_seconds), parse_seconds / read_seconds, "<= 2x",
                     parse_seconds <= 2 * read_seconds});

  // (c) parse-stage scaling, 1 -> 2 threads.
  const double one_thread = parse_with_threads(contents, 1);
  const double two_threads = parse_with_threads(contents, 2);
  figures.push_back({"c. parse stage, 1 thread vs 2 threads (speed-up)", fmt::format("{:.3f} s", two_threads),
                     fmt::format("{:.3f} s", one_thread), one_thread / two_threads, ">= 1.7x", one_thread / two_threads >= 1.7});
  contents.clear();

  // (b) end-to-end index against the SQLite floor.
  std::vector<FileRow> rows;
  for (const auto& file : files) rows.push_back(process_file(file, ReferenceData::embedded(), ProcessOptions{}));
  const double floor_seconds = sqlite_floor(rows, work / "floor.db");
  rows.clear();
  const auto database = work / "index.db";
  const double index_seconds = timed([&] { index_tree(work / "corpus-1x", database, false); });
  figures.push_back({"b. animdex index (2 threads) vs SQLite floor (same rows, one transaction)",
                     fmt::format("{:.3f} s", index_seconds), fmt::format("{:.3f} s", floor_seconds),
                     index_seconds / floor_seconds, "<= 1.3x", index_seconds <= 1.3 * floor_seconds});

  // (d) re-index of the unchanged tree against the first index.
  IndexSummary again;
  const double reindex_seconds = timed([&] { again = index_tree(work / "corpus-1x", database, true); });
  figures.push_back({"d. first index vs re-index of the unchanged tree (speed-up)", fmt::format("{:.4f} s", reindex_seconds),
                     fmt::format("{:.3f} s", index_seconds), index_seconds / reindex_seconds, ">= 20x",
                     index_seconds >= 20 * reindex_seconds && again.totals.unchanged == static_cast<std::int64_t>(corpus.files)});

  // (g) database size against the input, keyframe rows or none.
  const auto with_rows = database_bytes(database);
  index_tree(work / "corpus-1x", work / "lean.db", false, /*keyframes=*/false);
  const auto without_rows = database_bytes(work / "lean.db");
  figures.push_back({"g. database size, --keyframes rows, vs input", mib(with_rows), mib(corpus.bytes),
                     static_cast<double>(with_rows) / static_cast<double>(corpus.bytes), "(trade-off)", true});
  figures.push_back({"g. database size, --keyframes none, vs input", mib(without_rows), mib(corpus.bytes),
                     static_cast<double>(without_rows) / static_cast<double>(corpus.bytes), "(trade-off)", true});

  // (f) bone-users latency on the 10x database.
  const double latency_ms = median_query_ms(database10, smoke ? 5 : 31);
  const std::uint64_t size10 = database_bytes(database10);
  figures.push_back({"f. query bone-users -p bone 118, median, 10x database", fmt::format("{:.2f} ms", latency_ms),
                     mib(size10), latency_ms / 20.0, "< 20 ms", latency_ms < 20.0});

  // (h) `info` scales linearly in slots: 4x the slots should take about 4x the time (16x if quadratic).
  // 4x stays within the parse budget (1,536 bytes charged per BAR entry: about 21,800 entries in 32 MiB).
  const std::uint32_t slots = smoke ? 1'000 : 5'000;
  const double info_1x = info_seconds(write_dummy_set(work / "slots-1x.mset", slots));
  const double info_4x = info_seconds(write_dummy_set(work / "slots-4x.mset", 4 * slots));
  figures.push_back({fmt::format("h. animdex info on a motion set, {} slots vs {}", 4 * slots, slots),
                     fmt::format("{:.3f} s", info_4x), fmt::format("{:.3f} s", info_1x), info_4x / info_1x,
                     "<= 6x (linear: 4x)", info_4x <= 6 * info_1x});

  std::sort(figures.begin(), figures.end(), [](const Figure& a, const Figure& b) { return a.name < b.name; });
  std::printf("| figure | measured | baseline | ratio | target | met |\n|---|---:|---:|---:|---|---|\n");
  for (const auto& figure : figures)
    std::printf("| %s | %s | %s | %.2f | %s | %s |\n", figure.name.c_str(), figure.measured.c_str(),
                figure.baseline.c_str(), figure.ratio, figure.target.c_str(), figure.met ? "yes" : "**no**");
  std::printf("\ncorpus 1x: %llu files, %s, %llu animations, %llu keys; 10x: %llu files, %s, %llu keys%s\n",
              static_cast<unsigned long long>(corpus.files), mib(corpus.bytes).c_str(),
              static_cast<unsigned long long>(corpus.animations), static_cast<unsigned long long>(corpus.keys),
              static_cast<unsigned long long>(corpus10.files), mib(corpus10.bytes).c_str(),
              static_cast<unsigned long long>(corpus10.keys), smoke ? " (smoke run: timings not meaningful)" : "");
  fs::remove_all(work);
  return 0;
}
