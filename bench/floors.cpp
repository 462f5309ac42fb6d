#include "floors.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <fmt/format.h>
#include <oneapi/tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <variant>

#include "containers/member_bytes.h"
#include "core/content_hash.h"
#include "db/database.h"
#include "detect/identify.h"
#include "indexer/member_input.h"
#include "reference/reference_data.h"

namespace animdex::bench {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

InputListing listing_of(const fs::path& container) {
  auto opened = open_input(container);
  if (auto* why = std::get_if<std::string>(&opened)) throw std::runtime_error(container.string() + ": " + *why);
  auto listed = list_input(std::get<OpenedInput>(opened));
  if (auto* why = std::get_if<std::string>(&listed)) throw std::runtime_error(container.string() + ": " + *why);
  return std::move(std::get<InputListing>(listed));
}

ProcessOptions pipeline_options() {
  ProcessOptions options;
  options.release_encoded_keys = true;  // as the index pipeline's rows: the blobs stay, the key columns go
  return options;
}

FileRow row_of(const InputListing& listing, const Member& member, const std::string& path) {
  const ContainerLimits limits;
  DecompressionTally tally(limits.max_total_decompressed);
  auto opened = open_member(listing.data, member, limits, tally, known_content);
  if (!opened.ok()) throw std::runtime_error(fmt::format("{}: {}", path, opened.error().message()));
  std::vector<std::byte> bytes(static_cast<std::size_t>(opened.value().bytes->size()));
  opened.value().bytes->read(0, bytes);
  FileRow row;
  row.path = path;
  row.size = bytes.size();
  process_bytes(row, bytes, bytes.size(), ReferenceData::embedded(), pipeline_options());
  return row;
}

}  // namespace

std::vector<FileRow> member_rows(const fs::path& container) {
  const auto listing = listing_of(container);
  std::vector<FileRow> rows(listing.members.size());
  tbb::parallel_for(std::size_t{0}, rows.size(), [&](std::size_t i) {
    rows[i] = row_of(listing, listing.members[i], (container / listing.members[i].path).string());
  });
  return rows;
}

ReplaceFloor replace_floor(const fs::path& database, const fs::path& member, const std::string& member_path_in_database) {
  ReplaceFloor floor;
  // Its parse, from its decompressed bytes.
  const auto listing = listing_of(member.parent_path().parent_path());
  const std::string inside = member.lexically_relative(member.parent_path().parent_path()).generic_string();
  const auto found = std::find_if(listing.members.begin(), listing.members.end(),
                                  [&](const Member& m) { return m.path == inside; });
  if (found == listing.members.end()) throw std::runtime_error("replace_floor: no member " + member.string());
  floor.parse_seconds = 1e300;
  for (int r = 0; r < 3; ++r) {
    const auto started = Clock::now();
    const auto row = row_of(listing, *found, member.string());
    floor.parse_seconds = std::min(floor.parse_seconds, seconds_since(started));
    if (row.status != FileStatus::ok) throw std::runtime_error("replace_floor: " + member.string() + " did not parse");
  }
  // Every member's stored bytes read and hashed, as a re-index of a changed image does.
  const auto verify_started = Clock::now();
  tbb::parallel_for(std::size_t{0}, listing.members.size(), [&](std::size_t i) {
    const Member& m = listing.members[i];
    if (m.compression) (void)hash_range(*listing.data, m.offset, m.stored_size);
  });
  floor.verify_seconds = seconds_since(verify_started);
  // Its tracks out and in again, new animation ids after the others as a re-index gives them.
  SQLite::Database db(database.string(), SQLite::OPEN_READWRITE);
  db.exec(fmt::format("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = {}; "
                      "PRAGMA secure_delete = OFF; PRAGMA foreign_keys = OFF", kWriterCacheSize));
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  ::sync();  // the copy's pages on the disk, so the commit's syncs write only this change
  std::int64_t file_id = 0;
  {
    SQLite::Statement find(db, "SELECT id FROM files WHERE path = ?");
    find.bind(1, member_path_in_database);
    if (!find.executeStep()) throw std::runtime_error("replace_floor: no file " + member_path_in_database);
    file_id = find.getColumn(0).getInt64();
  }
  db.exec(fmt::format("CREATE TEMP TABLE kept AS SELECT * FROM bone_tracks WHERE animation_id IN "
                      "(SELECT id FROM animations WHERE file_id = {})", file_id));
  const auto started = Clock::now();
  db.exec("BEGIN");
  db.exec(fmt::format("DELETE FROM bone_tracks WHERE animation_id IN (SELECT id FROM animations WHERE file_id = {})",
                      file_id));
  db.exec("INSERT INTO bone_tracks SELECT NULL, animation_id + (SELECT max(id) FROM animations), track_index, bone_id, "
          "bone_name, flags, track_flags, channels, value_encoding, key_count, total_time, content_hash, keys "
          "FROM temp.kept");
  db.exec("COMMIT");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  floor.database_seconds = seconds_since(started);
  return floor;
}

double two_thread_floor(const IndexPhases& one_thread) {
  const double files = std::max({one_thread.writer_seconds, one_thread.scan_seconds, one_thread.files_seconds / 2});
  return one_thread.setup_seconds + files + one_thread.end_seconds;
}

}  // namespace animdex::bench
