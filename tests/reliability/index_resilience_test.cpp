// Issue 12: no single input sinks a scan. Each case puts a bad input beside good files and checks
// that the good files' rows are all there and the bad one is one row that says why.
#include <catch2/catch.hpp>
#include <random>
#include <sys/stat.h>

#include "db/database.h"
#include "indexer/db_writer.h"
#include "indexer/pipeline.h"
#include "sample/sample_dump.h"
#include "support/index_tree.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

IndexSummary index_folder(const fs::path& root, const fs::path& database) {
  auto options = test::index_options(root, database, "t");
  options.threads = 2;
  return run_index(options);
}

std::string row_of(SQLite::Database& db, const std::string& path) {
  SQLite::Statement query(db, "SELECT status || ' | ' || COALESCE(error, '') || ' | ' || COALESCE(error_offset, '') "
                              "FROM files WHERE path = ?");
  query.bind(1, path);
  return query.executeStep() ? query.getColumn(0).getString() : "(no row)";
}

fs::path write_sample(const test::TempDir& dir, bool kh2_and_nsbca) {
  return test::write_clean_sample(dir / "s", 3, kh2_and_nsbca);
}

// A GNT file's rows, of one track with keys at 0 and `time`.
FileRow file_with_key(const std::string& path, double time) {
  FileRow row;
  row.path = path;
  row.format = "gnt_mot";
  row.status = FileStatus::ok;
  row.size = 100;
  auto& animation = row.model.animations.emplace_back();
  auto& track = animation.tracks.emplace_back();
  track.channels = "R";
  track.keys.push_back({0.0, 0, 1.0, 2.0, 3.0, 4.0});
  track.keys.push_back({time, 1, 1.0, 2.0, 3.0, 4.0});
  AnimationRow animation_row;
  animation_row.content_hash = "a";
  animation_row.shape_hash = "s";
  animation_row.key_count = 2;
  animation_row.tracks.push_back({2, std::nullopt, "t", {}});
  row.animations.push_back(animation_row);
  return row;
}

// A file the scan found unchanged (size and time as before): its rows stay.
FileRow unchanged(const std::string& path) {
  FileRow row;
  row.path = path;
  row.size = 100;
  row.reuse = Reuse::unchanged_stat;
  return row;
}

// Dump "t" at "/r", a row per key: the layout where one value meets a constraint.
DumpSettings rows_settings() {
  DumpSettings settings;
  settings.label = "t";
  settings.root = "/r";
  settings.key_storage = KeyStorage::rows;
  return settings;
}

// A NARC's row at `path`, then its members m1.mot and m2.mot, each a file_with_key.
void write_image_with_members(DumpWriter& writer, const std::string& path) {
  FileRow image;
  image.path = path;
  image.format = "narc";
  image.status = FileStatus::ok;
  image.size = 100;
  writer.write(image);
  for (const char* name : {"m1.mot", "m2.mot"}) {
    auto member = file_with_key(path + "/" + name, 0.5);
    member.parent_path = path;
    member.member_name = name;
    writer.write(member);
  }
}

}  // namespace

TEST_CASE("a NaN key time fails only its file, the file beside it is stored (the issue's reproduction)",
          "[reliability]") {
  test::TempDir dir;
  const auto sample = write_sample(dir, false);
  fs::create_directories(dir / "n");
  fs::copy_file(sample / "files/chr/kak/0001.mot", dir / "n/0001.mot");
  fs::copy_file(sample / "files/chr/sas/0000.mot", dir / "n/0000.mot");
  auto bytes = test::read_bytes(dir / "n/0001.mot");
  for (int i = 0; i < 4; ++i) bytes.at(928 + i) = std::byte{0xFF};
  test::write_bytes(dir / "n/0001.mot", bytes);

  const auto summary = index_folder(dir / "n", dir / "n.db");
  CHECK(summary.totals.ok == 1);
  CHECK(summary.totals.errors == 1);
  auto db = open_read_only(dir / "n.db");
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(row_of(db, "0001.mot") ==
        "error | at offset 0x3A0: expected a finite float32 for a key time, found -nan (bits 0xFFFFFFFF) | 928");
  CHECK(row_of(db, "0000.mot") == "ok |  | ");
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes") > 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes WHERE time IS NULL") == 0);
}

// SQLite gives a new row the largest id + 1 (files has no AUTOINCREMENT): when a container that
// became a plain file takes its members' rows, and they held the largest ids, the next files get
// those ids. The members' old ids must then delete nothing at the end of the run.
TEST_CASE("a container's members removed with it never take another file's rows that got their ids",
          "[reliability][incremental]") {
  test::TempDir dir;
  const DumpSettings settings = rows_settings();
  auto db = open_for_writing(dir / "w.db");
  {
    DumpWriter writer(db, settings, ReferenceData::embedded());
    writer.write(file_with_key("a.mot", 0.5));
    write_image_with_members(writer, "z.narc");
    writer.finish();
  }
  const auto member_ids = test::sql_lines(db, "SELECT id FROM files WHERE parent_id IS NOT NULL ORDER BY id");
  REQUIRE(member_ids == std::vector<std::string>{"3", "4"});
  DumpWriter writer(db, settings, ReferenceData::embedded());
  writer.write(unchanged("a.mot"));
  writer.write(file_with_key("z.narc", 0.25));  // now a motion file: its old row and members go
  writer.write(file_with_key("new1.mot", 0.5));
  writer.write(file_with_key("new2.mot", 0.5));
  writer.finish();  // the members' rows, by their old ids, are not in the tree any more
  // The case this guards: the new files took the members' old ids.
  CHECK(test::sql_lines(db, "SELECT id FROM files WHERE path LIKE 'new%' ORDER BY id") == member_ids);
  CHECK(test::sql_lines(db, "SELECT f.path, COUNT(*) FROM keyframes k JOIN bone_tracks t ON t.id = k.track_id JOIN "
                            "animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id GROUP BY f.path "
                            "ORDER BY f.path") ==
        std::vector<std::string>{"a.mot|2", "new1.mot|2", "new2.mot|2", "z.narc|2"});
  CHECK(writer.totals().removed == 2);
  CHECK(test::foreign_key_violations(db) == 0);
}

TEST_CASE("rows the database refuses mark only that file as an error (savepoint)", "[reliability]") {
  test::TempDir dir;
  auto db = open_for_writing(dir / "w.db");
  const DumpSettings settings = rows_settings();
  DumpWriter writer(db, settings, ReferenceData::embedded());
  writer.write(file_with_key("a.mot", 0.5));
  // A NaN bound as REAL becomes NULL, which keyframes.time refuses: the classic one-value fault.
  writer.write(file_with_key("b.mot", std::numeric_limits<double>::quiet_NaN()));
  writer.write(file_with_key("c.mot", 0.5));
  writer.finish();
  CHECK(writer.totals().files == 3);
  CHECK(writer.totals().ok == 2);
  CHECK(writer.totals().errors == 1);
  CHECK(writer.totals().animations == 2);
  CHECK(row_of(db, "b.mot") == "error | the database refused this file's rows: NOT NULL constraint failed: "
                               "keyframe_rows.time | ");
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes") == 4);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations a JOIN files f ON f.id = a.file_id "
                                "WHERE f.path = 'b.mot'") == 0);
}

// The writer writes files in batches under one savepoint; a refused row rolls the batch back and
// writes it again a file at a time. What the batch had changed in the writer (the files it kept,
// replaced and counted) must be as if the batch had been written a file at a time from the start.
TEST_CASE("a refused row in a batch of kept, replaced and new files fails only that file", "[reliability]") {
  test::TempDir dir;
  const DumpSettings settings = rows_settings();
  {
    auto db = open_for_writing(dir / "w.db");
    DumpWriter writer(db, settings, ReferenceData::embedded());
    for (const char* path : {"kept.mot", "replaced.mot", "gone.mot"}) writer.write(file_with_key(path, 0.5));
    writer.finish();
  }
  auto db = open_for_writing(dir / "w.db");
  DumpWriter writer(db, settings, ReferenceData::embedded());
  writer.write(unchanged("kept.mot"));
  writer.write(file_with_key("replaced.mot", 0.25));
  writer.write(file_with_key("new.mot", 0.5));
  writer.write(file_with_key("refused.mot", std::numeric_limits<double>::quiet_NaN()));
  writer.write(file_with_key("after.mot", 0.5));
  writer.finish();
  CHECK(writer.totals().files == 5);
  CHECK(writer.totals().unchanged == 1);
  CHECK(writer.totals().parsed == 4);
  CHECK(writer.totals().removed == 1);  // gone.mot, and not kept.mot: its id stayed kept
  CHECK(writer.totals().errors == 1);
  CHECK(writer.totals().animations == 4);
  CHECK(row_of(db, "refused.mot") == "error | the database refused this file's rows: NOT NULL constraint failed: "
                                     "keyframe_rows.time | ");
  CHECK(test::sql_lines(db, "SELECT f.path, k.time FROM keyframes k JOIN bone_tracks t ON t.id = k.track_id "
                            "JOIN animations a ON a.id = t.animation_id JOIN files f ON f.id = a.file_id "
                            "WHERE k.key_index = 1 ORDER BY f.path") ==
        std::vector<std::string>{"after.mot|0.5", "kept.mot|0.5", "new.mot|0.5", "replaced.mot|0.25"});
  CHECK(test::foreign_key_violations(db) == 0);

  SECTION("an unchanged image's members kept in the batch are counted once when it is written again") {
    {
      DumpWriter again(db, settings, ReferenceData::embedded());
      write_image_with_members(again, "img.narc");
      again.finish();
    }
    DumpWriter writer2(db, settings, ReferenceData::embedded());
    FileRow image;
    image.path = "img.narc";
    image.size = 100;
    image.reuse = Reuse::unchanged_stat;
    image.keep_members = true;
    writer2.write(image);
    writer2.write(file_with_key("refused.mot", std::numeric_limits<double>::quiet_NaN()));
    writer2.finish();
    CHECK(writer2.totals().unchanged == 3);  // the image and its two members, once each
    CHECK(writer2.totals().members == 2);
    CHECK(writer2.totals().errors == 1);
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE parent_id IS NOT NULL") == 2);

    // The image is now a plain file: its members' rows go with its old row, so a member the
    // queue still kept by its hash becomes an error row that says so, where it was.
    DumpWriter writer3(db, settings, ReferenceData::embedded());
    writer3.write(file_with_key("img.narc", 0.5));
    FileRow member;
    member.path = "img.narc/m1.mot";
    member.parent_path = "img.narc";
    member.member_name = "m1.mot";
    member.member_offset = 64;
    member.size = 100;
    member.reuse = Reuse::unchanged_content;
    writer3.write(member);
    writer3.finish();
    CHECK(writer3.totals().errors == 1);
    CHECK(test::sql_lines(db, "SELECT status, member_name, member_offset, error FROM files "
                              "WHERE path = 'img.narc/m1.mot'") ==
          std::vector<std::string>{"error|m1.mot|64|its rows from the last index went with the container it was "
                                   "in; `index --full` parses it again"});
  }
}

TEST_CASE("FIFOs and devices in a tree become rows with their type, unknown files say why", "[reliability]") {
  test::TempDir dir;
  const auto sample = write_sample(dir, false);
  REQUIRE(::mkfifo((sample / "files/pipe.mot").c_str(), 0644) == 0);
  fs::create_symlink("/dev/null", sample / "files/null.mot");
  test::write_text(sample / "files/notes.mot", "S00F0000");
  test::write_text(sample / "files/empty.mot", "");
  index_folder(sample, dir / "f.db");  // must not block on the FIFO
  auto db = open_read_only(dir / "f.db");
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(row_of(db, "files/pipe.mot") == "unknown | not a regular file (FIFO); not read | ");
  CHECK(row_of(db, "files/null.mot") == "unknown | not a regular file (character device); not read | ");
  CHECK(row_of(db, "files/notes.mot") == "unknown | no known format: first bytes 53 30 30 46 30 30 30 30 | ");
  CHECK(row_of(db, "files/empty.mot") == "unknown | no known format: the file is empty | ");
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE status = 'ok'") == 6);
}

TEST_CASE("a file that would decode past the memory budget is an error at its count", "[reliability]") {
  test::TempDir dir;
  const auto sample = write_sample(dir, false);
  // A Player motion set that claims 1,000,000 dummy slots (16 MB): 1536 bytes each would be 1.4 GiB.
  std::vector<std::byte> set(16 + 16 * 1'000'000, std::byte{0});
  const char header[] = {'B', 'A', 'R', 1, 0x40, 0x42, 0x0F, 0, 0, 0, 0, 0, 1, 0, 0, 0};
  for (std::size_t i = 0; i < 16; ++i) set[i] = static_cast<std::byte>(header[i]);
  for (std::size_t e = 0; e < 1'000'000; ++e) set[16 + 16 * e] = std::byte{17};  // type Anb, size 0: a dummy
  test::write_bytes(sample / "obj/P_HUGE.mset", set);
  index_folder(sample, dir / "b.db");
  auto db = open_read_only(dir / "b.db");
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(row_of(db, "obj/P_HUGE.mset") ==
        "error | at offset 0x4: expected BAR entries that fit the 32 MiB a file may decode to (0 MiB used so "
        "far), found 1000000 of 1536 bytes each | 4");
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE status = 'ok'") == 6);
}

TEST_CASE("mutants of every format beside a good file never fail the index as a whole", "[reliability]") {
  test::TempDir dir;
  const auto sample = write_sample(dir, true);
  std::vector<std::vector<std::byte>> sources;
  for (const auto& entry : fs::recursive_directory_iterator(sample))
    if (entry.is_regular_file()) sources.push_back(test::read_bytes(entry.path()));
  REQUIRE(sources.size() >= 8);
  fs::create_directories(dir / "tree/mutants");
  fs::copy_file(sample / "files/chr/sas/0000.mot", dir / "tree/good.mot");
  std::mt19937 random(12);  // fixed: the same mutants every run
  const std::uint32_t patterns[] = {0xFFFFFFFFU, 0x7FC00000U, 0x7F800000U, 0x7FFFFFFFU, 0x80000000U, 0};
  for (int m = 0; m < 120; ++m) {
    auto bytes = sources[random() % sources.size()];
    if (bytes.size() < 8) continue;
    switch (m % 3) {
      case 0:  // a 32-bit word replaced by a value parsers must not trust
        for (int k = 0; k < 4; ++k) {
          const std::size_t at = (random() % (bytes.size() - 3)) & ~std::size_t{3};
          const std::uint32_t word = patterns[random() % std::size(patterns)];
          for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<std::byte>((word >> (8 * i)) & 0xFF);
        }
        break;
      case 1:  // random bytes
        for (int k = 0; k < 16; ++k) bytes[random() % bytes.size()] = static_cast<std::byte>(random());
        break;
      default:  // cut short
        bytes.resize(random() % bytes.size());
    }
    test::write_bytes(dir / "tree/mutants" / ("m" + std::to_string(m)), bytes);
  }
  const auto summary = index_folder(dir / "tree", dir / "m.db");
  CHECK(summary.totals.files == 121);
  auto db = open_read_only(dir / "m.db");
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(row_of(db, "good.mot") == "ok |  | ");
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations a JOIN files f ON f.id = a.file_id "
                                "WHERE f.path = 'good.mot'") == 10);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE status = 'error' AND error IS NULL") == 0);
}
