// Disc images and archives indexed in place (issue: containers): errors kept to one member, caps,
// unchanged images kept without reading. What the sample images answer (every member a row with its
// parent, the answers of the loose files, diffs member by member, the real NARCs) is in
// tests/sql/container_*.test.
#include <catch2/catch.hpp>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <set>

#include "containers/fpk/fpk_writer.h"
#include "containers/gcm/gcm_writer.h"
#include "containers/narc/narc_writer.h"
#include "containers/container_budget.h"
#include "containers/self_nesting_image.h"
#include "db/database.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "indexer/pipeline.h"
#include "sample/sample_dump.h"
#include "sample/sample_images.h"
#include "support/child_run.h"
#include "support/index_tree.h"
#include "support/sample_with_images.h"
#include "support/subjournal_counter.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> lines(const ResultTable& table) { return test::table_lines(table, " "); }

std::vector<std::string> lines(SQLite::Database& db, const std::string& sql, const Bindings& bindings = {}) {
  return lines(run_read_only_sql(db, sql, bindings));
}

using test::SampleWithImages;

}  // namespace

TEST_CASE("a corrupt member is one error row, the container and its other members are indexed", "[containers][reliability]") {
  test::TempDir dir;
  SampleDumpOptions options;
  options.character_count = 1;
  options.include_problem_files = false;
  write_sample_dump(dir / "dump", options);
  const auto mot = test::read_bytes(dir / "dump/files/chr/sas/0000.mot");
  auto archive = fpk::write_fpk({{"chr/sas/0000.mot", mot, true}, {"chr/sas/0009.mot", mot, true}});
  // The second entry's PRS stream: its first control byte says "copy" where nothing is written yet.
  const std::size_t second = 16 + 32 + 0x14;
  const std::uint32_t data = (std::to_integer<std::uint32_t>(archive[second]) << 24) |
                             (std::to_integer<std::uint32_t>(archive[second + 1]) << 16) |
                             (std::to_integer<std::uint32_t>(archive[second + 2]) << 8) |
                             std::to_integer<std::uint32_t>(archive[second + 3]);
  archive.at(data) = std::byte{0x00};
  archive.at(data + 1) = std::byte{0x00};
  fs::create_directories(dir / "disc");
  test::write_bytes(dir / "disc/game.iso", gcm::build_gcm({{"fpack/chr/sas1000.fpk", archive}}));
  const auto summary = test::index_tree(dir / "disc", dir / "e.db", "e");
  CHECK(summary.totals.errors == 1);
  auto db = open_read_only(dir / "e.db");
  CHECK(lines(db, "SELECT path, status FROM files ORDER BY path") ==
        std::vector<std::string>{"game.iso ok", "game.iso/fpack/chr/sas1000.fpk ok",
                                 "game.iso/fpack/chr/sas1000.fpk/chr/sas/0000.mot ok",
                                 "game.iso/fpack/chr/sas1000.fpk/chr/sas/0009.mot error"});
  const auto error = lines(db, "SELECT error FROM files WHERE status = 'error'");
  REQUIRE(error.size() == 1);
  INFO(error[0]);
  CHECK(error[0].find("prs stream of chr/sas/0009.mot") != std::string::npos);
}

TEST_CASE("containers nested deeper than the cap are an error row, not a crash", "[containers][reliability]") {
  test::TempDir dir;
  std::vector<std::byte> inner = test::bytes_of("BCA0 is not enough to be an animation");
  for (int level = 0; level < 10; ++level) inner = narc::build_narc({{"", inner}}, false);
  test::write_bytes(dir / "deep.narc", inner);
  const auto summary = test::index_tree(dir / "deep.narc", dir / "n.db", "n");
  CHECK(summary.totals.errors == 1);
  auto db = open_read_only(dir / "n.db");
  const auto error = lines(db, "SELECT path, format, error FROM files WHERE status = 'error'");
  REQUIRE(error.size() == 1);
  CHECK(error[0].starts_with("deep.narc/0/0/0/0/0/0/0/0 narc "));
  CHECK(error[0].find("nested at most 8 deep") != std::string::npos);
}

TEST_CASE("an unchanged image keeps its members without being read, a changed one re-parses only what changed",
          "[containers][incremental]") {
  SampleWithImages sample;
  const auto database = sample.dir / "i.db";
  const auto first = test::index_tree(sample.images, database, "images");
  const auto again = test::index_tree(sample.images, database, "images");
  CHECK(again.totals.incremental);
  CHECK(again.totals.files == first.totals.files);
  CHECK(again.totals.members == first.totals.members);
  CHECK(again.totals.parsed == 0);
  CHECK(again.totals.animations == first.totals.animations);
  // A new image with one member changed: the other members keep their rows (same content hash).
  fs::copy_file(sample.dump / "files/chr/kak/0001.mot", sample.dump / "files/chr/hak/0001.mot",
                fs::copy_options::overwrite_existing);
  const auto rebuilt = sample.dir / "rebuilt";
  write_sample_images(sample.dump, rebuilt);
  fs::copy_file(rebuilt / "gnt4.iso", sample.images / "gnt4.iso", fs::copy_options::overwrite_existing);
  const auto third = test::index_tree(sample.images, database, "images");
  CHECK(third.totals.files == first.totals.files);
  // Parsed again: the image, the changed FPK and the changed .mot (the rest by content hash).
  CHECK(third.totals.parsed == 3);
  auto db = open_read_only(database);
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files m WHERE m.path LIKE 'gnt4.iso/%' AND m.parent_id IS NULL") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations a JOIN files f ON f.id = a.file_id") ==
        third.totals.animations);
}

TEST_CASE("a changed image keeps its compressed members whose stored bytes are unchanged without decompressing them",
          "[containers][incremental]") {
  SampleWithImages sample;
  const auto database = sample.dir / "k.db";
  const auto first = test::index_tree(sample.images, database, "images");
  CHECK(first.kept_undecompressed == 0);
  const std::string sora = "kh2.iso/KH2.IDX/obj/P_EX100.mset";  // stored KH2-compressed
  const std::string raw = "kh2.iso/KH2.IDX/obj/M_EX010.mset";   // stored as is
  const std::string anb = "kh2.iso/KH2.IDX/anm/fm/al/b_al020/EAL20103E.anb";
  std::string sora_hash;
  {
    auto db = open_read_only(database);
    sora_hash = db.execAndGet("SELECT stored_hash FROM files WHERE path = '" + sora + "'").getString();
    CHECK(sora_hash.size() == 16);
    CHECK(test::query_integer(db, "SELECT stored_hash IS NULL FROM files WHERE path = '" + raw + "'") == 1);
    // Every member a container stores compressed that parsed has the hash; nothing else does.
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE parent_id IS NOT NULL AND status = 'ok' "
                                  "AND compression IN ('kh2', 'prs') AND stored_hash IS NULL") == 0);
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE stored_hash IS NOT NULL AND "
                                  "(parent_id IS NULL OR compression NOT IN ('kh2', 'prs'))") == 0);
  }
  // The ANB replaced (by the raw set's bytes): a new kh2.iso whose other members are as they were.
  fs::copy_file(sample.dump / "kh2/obj/M_SAMPLE.mset", sample.dump / "kh2/anm/S_SAMPLE.anb",
                fs::copy_options::overwrite_existing);
  const auto rebuilt = sample.dir / "rebuilt";
  write_sample_images(sample.dump, rebuilt);
  const auto image = sample.images / "kh2.iso";
  fs::copy_file(rebuilt / "kh2.iso", image, fs::copy_options::overwrite_existing);
  {  // A stored hash that does not match (same sizes): the member is decompressed after all.
    SQLite::Database writable(database.string(), SQLite::OPEN_READWRITE);
    writable.exec("UPDATE files SET stored_hash = '0000000000000000' WHERE path = '" + sora + "'");
  }
  const auto again = test::index_tree(sample.images, database, "images");
  // P_EX100 decompressed and found unchanged by its content hash, as M_EX010 (not compressed); the
  // ANB parsed, with the image, its table and the IMG, which all changed.
  CHECK(again.kept_undecompressed == 0);
  CHECK(again.totals.parsed == 4);
  CHECK(again.totals.files == first.totals.files);
  {
    auto db = open_read_only(database);
    CHECK(db.execAndGet("SELECT stored_hash FROM files WHERE path = '" + sora + "'").getString() == sora_hash);
    CHECK(db.execAndGet("SELECT format FROM files WHERE path = '" + anb + "'").getString() == "kh2_mset");
  }
  // The image touched again: both compressed members now match their stored hashes, kept unread.
  fs::last_write_time(image, fs::last_write_time(image) + std::chrono::seconds(2));
  const auto third = test::index_tree(sample.images, database, "images");
  CHECK(third.kept_undecompressed == 2);
  CHECK(third.totals.animations == again.totals.animations);
  auto db = open_read_only(database);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations a JOIN files f ON f.id = a.file_id "
                                "WHERE f.path = '" + sora + "'") > 0);
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations a JOIN files f ON f.id = a.file_id") ==
        third.totals.animations);
}

TEST_CASE("a 1.4 GB sparse disc image is indexed by range in bounded memory", "[containers][memory]") {
  SampleWithImages sample;
  const auto image = sample.dir / "full.iso";
  fs::copy_file(sample.images / "gnt4.iso", image);
  fs::resize_file(image, 1'459'978'240);  // a full GameCube disc; the tail is a hole
  const auto database = sample.dir / "m.db";
  const auto messages = sample.dir / "messages.txt";
  // Its own process, measured by itself (`-v` prints VmHWM): the rusage ru_maxrss a parent gets
  // also counts the pages the parent had when it forked.
  CHECK(test::run_animdex_in_child({"index", image.string(), "--db", database.string(), "--quiet", "-v"}, messages) == 0);
  const auto text = test::read_text(messages);
  INFO(text);
  const auto at = text.find("peak memory ");
  REQUIRE(at != std::string::npos);
  const double peak_mib = std::stod(text.substr(at + 12));
  CHECK(peak_mib > 1.0);
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer holds up to 256 MiB of freed memory in quarantine, and its shadow besides: a
  // peak there measures the sanitizer (270 MiB seen in CI). The release suite judges the bound.
  WARN("peak memory not judged under AddressSanitizer: " << peak_mib << " MiB");
#else
  CHECK(peak_mib < 256.0);
#endif
  auto db = open_read_only(database);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE format = 'gnt_mot' AND status = 'ok'") == 6);
  CHECK(test::query_integer(db, "SELECT size FROM files WHERE parent_id IS NULL") == 1'459'978'240);
}

TEST_CASE("member paths that collide or climb are made unique and plain, the scan goes on", "[containers][reliability]") {
  test::TempDir dir;
  test::write_clean_sample(dir / "dump", 1, false);
  const auto animation = test::read_bytes(dir / "dump/files/chr/sas/0001.mot");
  // `a` is an archive holding `b`, beside an entry named `a/b`: both make the path x.fpk/a/b.
  const auto inner = fpk::write_fpk({{"b", animation, false}});
  const auto archive = fpk::write_fpk({{"a", inner, false}, {"a/b", animation, false}, {"../up.mot", animation, false},
                                       {"c//d.mot", animation, false}});
  fs::create_directories(dir / "odd");
  test::write_bytes(dir / "odd/x.fpk", archive);
  test::write_bytes(dir / "odd/y.mot", animation);
  const auto summary = test::index_tree(dir / "odd", dir / "o.db", "o");
  CHECK(summary.totals.errors == 0);
  auto db = open_read_only(dir / "o.db");
  // `a`, also the folder of `a/b`, is renamed a#2 (issue 35: one name, one member): the member
  // paths of x.fpk are prefix-free, so x.fpk/a/b can only be the entry named a/b.
  CHECK(lines(db, "SELECT path, format FROM files ORDER BY path") ==
        std::vector<std::string>{"x.fpk fpk", "x.fpk/%2E%2E/up.mot gnt_mot", "x.fpk/a#2 fpk", "x.fpk/a#2/b gnt_mot",
                                 "x.fpk/a/b gnt_mot", "x.fpk/c/d.mot gnt_mot", "y.mot gnt_mot"});
  CHECK(test::query_integer(
            db, "SELECT COUNT(*) FROM scan_warnings WHERE message LIKE '%recorded as%' OR message LIKE '%listed as%'") == 3);
}

TEST_CASE("one file's nested containers share one member cap, so overlapping tables cannot multiply rows",
          "[containers][reliability]") {
  test::TempDir dir;
  // Each level holds the level below six times (the same bytes): 6^5 members without a shared cap.
  std::vector<std::byte> level = test::bytes_of("not an animation");
  for (int depth = 0; depth < 5; ++depth) {
    std::vector<fpk::FpkInput> entries;
    for (int copy = 0; copy < 6; ++copy) entries.push_back({fmt::format("e{}", copy), level, false});
    level = fpk::write_fpk(entries);
  }
  test::write_bytes(dir / "bomb.fpk", level);
  auto index = test::index_options(dir / "bomb.fpk", dir / "b.db");
  index.container_limits.max_members = 100;
  const auto summary = run_index(index);
  CHECK(summary.totals.files < 150);
  auto db = open_read_only(index.database);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE error LIKE '%at most 100 members in all the containers of one file%'") > 0);
}

TEST_CASE("one budget per walked file: a self-nesting image stops at its member budget, the rest of the run is stored",
          "[containers][reliability][caps]") {
  // Issue 35 item 5: a 9.6 KB image holding itself 6 times, nested 8 deep, made `index` list
  // 1,000,000 members (77 s, 172 MB resident). Its budget grows with its size: 10,000 members and
  // one per 8 bytes; what is past it is error rows naming the cap, and every other file is stored.
  test::TempDir dir;
  test::write_clean_sample(dir / "tree/dump", 1, false);
  const auto image = test::self_nesting_image(6);
  test::write_bytes(dir / "tree/nest.iso", image);
  test::write_bytes(dir / "tree/small.iso", test::self_nesting_image(2));  // 510 members: within its budget
  auto index = test::index_options(dir / "tree", dir / "n.db");
  index.threads = 2;
  const auto started = std::chrono::steady_clock::now();
  const auto summary = run_index(index);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::uint64_t budget = ContainerBudget::kMemberFloor + image.size() / ContainerBudget::kInputBytesPerMember;
  auto db = open_read_only(index.database);
  const auto nest_rows = test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path LIKE 'nest.iso/%'");
  CHECK(nest_rows <= static_cast<std::int64_t>(budget));
  CHECK(nest_rows > 10'000);
  const auto spent = fmt::format("at most {} members in all the containers of one file (10000 and one per 8 bytes of its {})",
                                 budget, image.size());
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path LIKE 'nest.iso/%' AND status = 'error' AND error LIKE '%" +
                                    spent + "%'") > 0);
  // The other files: the small image whole, the sample's animations all there.
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path LIKE 'small.iso/%'") == 2 + 4 + 8 + 16 + 32 + 64 + 128 + 256);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path LIKE 'small.iso/%' AND error LIKE '%members in all%'") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path LIKE 'dump/%' AND status = 'ok'") > 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path LIKE 'dump/%' AND status = 'error'") == 0);
  CHECK(summary.totals.animations > 0);
  CHECK(seconds < 30);  // 77 s before, under 1 s now (the whole run, sample included)
}

TEST_CASE("one budget per walked file: decompression in all its containers, peeks included, shares one cap",
          "[containers][reliability][caps]") {
  // Each inner FPK decodes 96 KB (a 34 KB peek and the whole member): under a per-container cap of
  // 160 KB both were read; charged to the file, the second inner FPK's member is an error row. A
  // second walked file has a budget of its own.
  test::TempDir dir;
  const std::vector<std::byte> zeros(64 << 10, std::byte{0});
  const auto inner = fpk::write_fpk({{"z.bin", zeros, true}});
  const auto outer = fpk::write_fpk({{"a.fpk", inner, false}, {"b.fpk", inner, false}});
  test::write_bytes(dir / "tree/one.fpk", outer);
  test::write_bytes(dir / "tree/two.fpk", outer);
  auto index = test::index_options(dir / "tree", dir / "d.db");
  index.threads = 2;
  index.container_limits.max_total_decompressed = 160 << 10;
  run_index(index);
  auto db = open_read_only(index.database);
  const std::string cap = "at most 163840 decompressed bytes in all the containers of one file";
  for (const std::string file : {"one.fpk", "two.fpk"}) {
    CAPTURE(file);
    // Which of the two is last to decode depends on the threads; one of them is.
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path LIKE '" + file + "/_.fpk/z.bin' AND status != 'error'") == 1);
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path LIKE '" + file + "/_.fpk/z.bin' AND error LIKE '%" +
                                      cap + "%'") == 1);
  }
}

TEST_CASE("a member that moved inside its container keeps its rows, with where it now sits", "[containers][incremental]") {
  test::TempDir dir;
  test::write_clean_sample(dir / "dump", 1, false);
  const auto first = test::read_bytes(dir / "dump/files/chr/sas/0000.mot");
  const auto second = test::read_bytes(dir / "dump/files/chr/sas/0001.mot");
  fs::create_directories(dir / "disc");
  test::write_bytes(dir / "disc/x.fpk", fpk::write_fpk({{"a.mot", first, true}, {"b.mot", second, true}}));
  test::index_tree(dir / "disc", dir / "m.db", "m");
  test::write_bytes(dir / "disc/x.fpk", fpk::write_fpk({{"b.mot", second, true}, {"a.mot", first, true}}));
  fs::last_write_time(dir / "disc/x.fpk", fs::file_time_type::clock::now() + std::chrono::seconds(5));
  const auto again = test::index_tree(dir / "disc", dir / "m.db", "m");
  CHECK(again.totals.parsed == 1);  // the archive; both members by content hash
  auto db = open_read_only(dir / "m.db");
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(lines(db, "SELECT path, member_offset FROM files WHERE parent_id IS NOT NULL ORDER BY member_offset") ==
        std::vector<std::string>{"x.fpk/b.mot 80", fmt::format("x.fpk/a.mot {}", 80 + ((test::query_integer(
            db, "SELECT stored_size FROM files WHERE path = 'x.fpk/b.mot'") + 15) / 16) * 16)});
}

TEST_CASE("a re-index of a changed archive keeps its other members without copying their pages to a sub-journal",
          "[containers][incremental]") {
  // Each kept member's row is brought up to date (time, place). When re-indexes wrote with
  // foreign-key enforcement, setting its parent_id too made each UPDATE a statement SQLite prepared
  // for by copying every page it touched into the sub-journal first: about 80 KiB a member here,
  // 100 MB for a KH2 DVD. No run has enforcement now; this keeps the sub-journal bounded.
  test::TempDir dir;
  test::write_clean_sample(dir / "dump", 1, false);
  const auto motion = test::read_bytes(dir / "dump/files/chr/sas/0000.mot");
  const auto other = test::read_bytes(dir / "dump/files/chr/sas/0001.mot");
  constexpr int kMembers = 200;
  const auto archive = [&](const std::vector<std::byte>& first) {
    std::vector<fpk::FpkInput> entries{{"m000.mot", first, true}};
    for (int i = 1; i < kMembers; ++i) entries.push_back({fmt::format("m{:03}.mot", i), motion, true});
    return fpk::write_fpk(entries);
  };
  test::write_bytes(dir / "disc/x.fpk", archive(motion));
  test::index_tree(dir / "disc", dir / "s.db", "s");
  test::write_bytes(dir / "disc/x.fpk", archive(other));
  fs::last_write_time(dir / "disc/x.fpk", fs::file_time_type::clock::now() + std::chrono::seconds(5));
  test::SubjournalCounter counter;
  const auto again = test::index_tree(dir / "disc", dir / "s.db", "s");
  CHECK(again.kept_undecompressed == kMembers - 1);
  CHECK(again.totals.parsed == 2);  // the archive and its changed member
  // Measured: 1.0 MB (each batch's savepoint journals the pages it touches once, and the changed
  // member's rows); 17.2 MB with parent_id set, even to itself.
  CHECK(counter.bytes() > 0);  // the counter sees sub-journals at all
  CHECK(counter.bytes() < (4 << 20));
  auto db = open_read_only(dir / "s.db");
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE parent_id = (SELECT id FROM files WHERE path = "
                                "'x.fpk') AND mtime_ns = (SELECT mtime_ns FROM files WHERE path = 'x.fpk')") == kMembers);
}

TEST_CASE("a truncated disc image keeps the members before the cut, the cut one is an error row",
          "[containers][reliability]") {
  SampleWithImages sample;
  const auto cut = sample.dir / "cut.iso";
  auto bytes = test::read_bytes(sample.images / "gnt4.iso");
  bytes.resize(bytes.size() - 200);  // into the last file on the disc
  test::write_bytes(cut, bytes);
  const auto summary = test::index_tree(cut, sample.dir / "t.db", "t");
  CHECK(summary.totals.errors == 1);
  auto db = open_read_only(sample.dir / "t.db");
  // The last file on the disc, an FPK, is cut: it is the error row; the other two characters' files are read.
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE format = 'gnt_mot' AND status = 'ok'") == 4);
  CHECK(lines(db, "SELECT path FROM files WHERE status = 'error'") ==
        std::vector<std::string>{"cut.iso/fpack/chr/sas1000.fpk"});
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM scan_warnings WHERE message LIKE '%cut short?%'") == 1);
}

TEST_CASE("one bad member loses only itself: a broken FPK or NARC entry is one error row", "[containers][reliability]") {
  // Issue 35: a broken entry failed the whole archive, its good zz1/0001.mot was lost, and the FPK
  // (its first entry broken) was then detected as a gnt_mot.
  test::TempDir dir;
  test::write_clean_sample(dir / "dump", 1, false);
  const auto animation = test::read_bytes(dir / "dump/files/chr/sas/0001.mot");
  fs::create_directories(dir / "tree");
  auto archive = fpk::write_fpk({{"zz1/0000.mot", animation, false}, {"zz1/0001.mot", animation, false}});
  const std::size_t first_stored_size = 16 + 0x18;
  for (int i = 0; i < 4; ++i) archive[first_stored_size + i] = std::byte{0x7F};  // far past the end
  test::write_bytes(dir / "tree/x.fpk", archive);
  auto narc = narc::build_narc({{"zz1/0000.mot", animation}, {"zz1/0001.mot", animation}}, true);
  for (int i = 0; i < 4; ++i) narc[0x1C + i] = std::byte{0x7F};  // BTAF entry 0's start after its end
  test::write_bytes(dir / "tree/y.narc", narc);
  test::index_tree(dir / "tree", dir / "t.db", "t");
  auto db = open_read_only(dir / "t.db");
  CHECK(lines(db, "SELECT path, format, status FROM files ORDER BY path") ==
        std::vector<std::string>{"x.fpk fpk ok", "x.fpk/zz1/0000.mot unknown error", "x.fpk/zz1/0001.mot gnt_mot ok",
                                 "y.narc narc ok", "y.narc/zz1/0000.mot unknown error", "y.narc/zz1/0001.mot gnt_mot ok"});
  CHECK(lines(db, "SELECT path, error_offset FROM files WHERE status = 'error' ORDER BY path") ==
        std::vector<std::string>{"x.fpk/zz1/0000.mot 40", "y.narc/zz1/0000.mot 28"});
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path = 'x.fpk/zz1/0000.mot' AND error LIKE "
                                "'at offset 0x28: expected 2139062143 stored bytes at 0x50 inside the %-byte FPK%'") == 1);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE path = 'y.narc/zz1/0000.mot' AND error LIKE "
                                "'at offset 0x1C: expected a member start at most its end%'") == 1);
}
