// Writes a dump of twelve characters with the .mot writer (plus corrupt and non-GNT files),
// indexes it and checks exact answers.
#include <catch2/catch.hpp>
#include <map>

#include "db/database.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "formats/gnt_mot/gnt_mot_builder.h"
#include "formats/gnt_mot/gnt_mot_parser.h"
#include "formats/gnt_mot/gnt_mot_writer.h"
#include "indexer/pipeline.h"
#include "support/gnt_builders.h"
#include "support/test_support.h"

using namespace animdex;
using namespace animdex::gnt_mot;

namespace {

const std::vector<std::string> kCharacters = {"sas", "hak", "kak", "loc", "iru", "zab",
                                              "sak", "nar", "ino", "gar", "nej", "hin"};

BoneSpec rotation(std::uint16_t bone, std::vector<std::int64_t> frames, float base) {
  return test::rotation_track(bone, std::move(frames), base, CoordinateEncoding::bf16, std::byte{0xCD});
}

GntAnimation animation(std::uint32_t id, std::int64_t frames, const std::vector<BoneSpec>& bones) {
  return test::gnt_animation(id, frames, bones);
}

// The universal throw: the same content everywhere it appears.
GntAnimation universal_throw() {
  return animation(0x140, 40, {rotation(0, {0, 20, 40}, 0.5F), rotation(1, {0, 40}, 1.0F),
                               rotation(118, {0, 10, 40}, 2.0F), rotation(119, {0, 40}, 2.0F),
                               rotation(120, {0, 40}, 2.0F)});
}

std::vector<GntAnimation> animations_for(std::size_t index, const std::string& code) {
  const float personal = 0.5F + static_cast<float>(index);  // exactly representable in bf16 for index < 12
  std::vector<BoneSpec> body;
  for (std::uint16_t bone = 0; bone < 6; ++bone) body.push_back(rotation(bone, {0, 15, 30}, personal));
  std::vector<GntAnimation> list;
  auto idle_bones = body;
  if (code == "ino") idle_bones.push_back(rotation(118, {0, 30}, 1.5F));  // hair left 3
  list.push_back(animation(0x0000, 30, idle_bones));
  list.push_back(animation(0x0001, 24, body));
  if (code == "sas" || code == "kak" || code == "nar" || code == "gar") list.push_back(universal_throw());
  if (code == "sak") list.push_back(animation(0x0090, 20, {rotation(119, {0, 20}, 1.0F)}));  // 119 but not 118
  if (code == "nar") list.push_back(animation(0x01B0, 60, body));
  if (code == "gar") {
    auto more = body;
    more.push_back(rotation(0x15, {0, 30, 60}, 3.0F));
    list.push_back(animation(0x01B0, 60, more));
  }
  return list;
}

std::string write_dump(const test::TempDir& dir) {
  const auto root = dir / "dump";
  for (std::size_t i = 0; i < kCharacters.size(); ++i) {
    const auto& code = kCharacters[i];
    MotFile battle;
    battle.slot_count = 0x200;
    battle.animations = animations_for(i, code);
    test::write_bytes(root / "files/chr" / code / "0000.mot", write_mot(battle));
    MotFile select;
    select.slot_count = 1;
    select.animations = {battle.animations.front()};
    test::write_bytes(root / "files/chr" / code / "0001.mot", write_mot(select));
  }
  // Problem files.
  MotFile small;
  small.slot_count = 4;
  small.animations = animations_for(0, "x");
  small.animations.resize(2);
  auto truncated = write_mot(small);
  truncated.resize(truncated.size() - 16);
  test::write_bytes(root / "files/chr/bad/0000.mot", truncated);
  auto bad_flags = write_mot(small);
  const std::size_t first_gnta = align16(0x10 + 4 * 4);
  bad_flags[first_gnta + 0x10] = std::byte{0x02};
  bad_flags[first_gnta + 0x11] = std::byte{0x00};  // flags1 0x0200: no encoding bit
  test::write_bytes(root / "files/chr/zab/0002.mot", bad_flags);
  test::write_text(root / "files/tools/loader.mot", "S00F000068656C6C6F202020202000003C\nS9030000FC\n");
  test::write_text(root / "files/lw/camera.mot", "LWMO\n1\n9\n1\n0 0 0 0 0 0 1 1 1\n0 0 0 0 0\n");
  test::write_bytes(root / "files/chr/ank/0000.mot", test::bytes_of("\x02\x84\x10\x98\x24\x01\x84\x21"));
  return root.string();
}

IndexOptions options_for(const std::string& root, const std::filesystem::path& database, const std::string& label) {
  IndexOptions options;
  options.roots = {root};
  options.database = database;
  options.label = label;
  options.threads = 2;
  return options;
}

}  // namespace

TEST_CASE("indexing a generated dump answers queries exactly", "[end_to_end]") {
  test::TempDir dir;
  const auto root = write_dump(dir);
  const auto options = options_for(root, dir / "dump.db", "ntsc");
  const auto summary = run_index(options);
  CHECK(summary.totals.files == 29);
  CHECK(summary.totals.ok == 25);
  CHECK(summary.totals.errors == 2);
  CHECK(summary.totals.unknown == 2);

  auto db = open_read_only(options.database);
  CHECK(test::foreign_key_violations(db) == 0);

  SECTION("every file is recorded with the right status and format") {
    auto files = run_read_only_sql(db, "SELECT path, format, status FROM files WHERE path NOT LIKE 'files/chr/___/000_.mot' "
                                       "OR character IN ('bad', 'ank') OR path LIKE '%/0002.mot' ORDER BY path");
    std::vector<std::string> lines;
    for (const auto& row : files.rows)
      lines.push_back(cell_text(row[0]) + " " + cell_text(row[1]) + " " + cell_text(row[2]));
    CHECK(lines == std::vector<std::string>{
                       "files/chr/ank/0000.mot unknown unknown",
                       "files/chr/bad/0000.mot gnt_mot error",
                       "files/chr/zab/0002.mot gnt_mot error",
                       "files/lw/camera.mot lw_mot ok",
                       "files/tools/loader.mot unknown unknown",
                   });
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files WHERE status = 'ok' AND format = 'gnt_mot' AND character IS NOT NULL") == 24);
    auto errors = test::run_named(db, "errors", {});
    REQUIRE(errors.rows.size() == 2);
    CHECK_THAT(cell_text(errors.rows[0][3]), Catch::StartsWith("at offset 0xC: expected the file size"));
    CHECK_THAT(cell_text(errors.rows[1][3]), Catch::Contains("flags1 0x0200 together with") &&
                                                 Catch::StartsWith("at offset 0x30:"));
    CHECK(test::query_integer(db, "SELECT error_offset FROM files WHERE path = 'files/chr/zab/0002.mot'") == 0x30);
  }

  SECTION("bone-users lists exactly the characters that animate bone 118") {
    for (const char* bone : {"118", "0x76"}) {
      auto users = test::run_named(db, "bone-users", {{"bone", bone}});
      CHECK(users.columns == std::vector<std::string>{"game", "character", "bone_name", "animations"});
      std::vector<std::string> lines;
      for (const auto& row : users.rows) {
        CHECK(cell_text(row[0]) == "gnt4");
        CHECK(cell_text(row[2]) == "hair left 3");  // GNT's bone 118, from the gnt4 reference
        lines.push_back(cell_text(row[1]) + "=" + cell_text(row[3]));
      }
      // ino's hair is in its idle, which 0001.mot repeats: two animations.
      CHECK(lines == std::vector<std::string>{"gar=1", "ino=2", "kak=1", "nar=1", "sas=1"});
    }
    CHECK(test::run_named(db, "bone-users", {{"bone", "119"}}).rows.size() == 5);  // sak joins
    CHECK(test::run_named(db, "bone-users", {{"bone", "999"}}).rows.empty());
  }

  SECTION("animations, tracks and keys are counted exactly") {
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations") == 12 * 3 + 4 + 1 + 2 + 1);  // + camera.mot
    CHECK(test::query_integer(db, "SELECT animation_count FROM files WHERE path = 'files/chr/nar/0000.mot'") == 4);
    CHECK(test::query_integer(db, "SELECT track_count FROM animations a JOIN files f ON f.id = a.file_id "
                      "WHERE f.path = 'files/chr/gar/0000.mot' AND a.motion_id = 0x1B0") == 7);
    CHECK(test::query_integer(db, "SELECT key_count FROM animations a JOIN files f ON f.id = a.file_id "
                      "WHERE f.path = 'files/chr/sas/0000.mot' AND a.motion_id = 0x140") == 3 + 2 + 3 + 2 + 2);
    CHECK(test::query_integer(db, "SELECT frame_count FROM animations a JOIN files f ON f.id = a.file_id "
                      "WHERE f.path = 'files/chr/nar/0000.mot' AND a.motion_id = 0x1B0") == 60);
  }

  SECTION("keyframe values are exact") {
    // nar is character 7: base 7.5; key 2 of each body bone = (7.5, -7.5, 0.5, 90).
    auto keys = run_read_only_sql(
        db, "SELECT k.time, k.frame, k.x, k.y, k.z, k.w, t.bone_name, t.channels, t.flags, t.track_flags "
            "FROM keyframes k JOIN bone_tracks t ON t.id = k.track_id JOIN animations a ON a.id = t.animation_id "
            "JOIN files f ON f.id = a.file_id WHERE f.path = 'files/chr/nar/0000.mot' AND a.motion_id = 0 "
            "AND t.bone_id = 3 AND k.key_index = 2");
    REQUIRE(keys.rows.size() == 1);
    const auto& row = keys.rows[0];
    CHECK(std::get<double>(row[0]) == static_cast<double>(30.0F / 60.0F));
    CHECK(std::get<std::int64_t>(row[1]) == 30);
    CHECK(std::get<double>(row[2]) == 7.5);
    CHECK(std::get<double>(row[3]) == -7.5);
    CHECK(std::get<double>(row[4]) == 0.5);
    CHECK(std::get<double>(row[5]) == 90.0);
    CHECK(std::get<std::string>(row[6]) == "hip");
    CHECK(std::get<std::string>(row[7]) == "R");
    CHECK(std::get<std::int64_t>(row[8]) == 0x0202);
    CHECK(std::get<std::int64_t>(row[9]) == 0x28);
  }

  SECTION("the same animation has the same content hash wherever it sits") {
    // The throw sits at different offsets in nar's and sas's files (nar also has 0x1B0 before it).
    auto offset_of_throw = [&](const std::string& code) {
      auto parsed = parse_mot(test::read_bytes(std::filesystem::path(root) / "files/chr" / code / "0000.mot"));
      REQUIRE(parsed.ok());
      for (const auto& gnta : parsed.value().animations)
        if (gnta.animation_id == 0x140) return gnta.file_offset;
      return 0U;
    };
    CHECK(offset_of_throw("nar") != offset_of_throw("sas"));
    CHECK(test::query_integer(db, "SELECT COUNT(DISTINCT content_hash) FROM animations WHERE motion_id = 0x140") == 1);
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM animations WHERE motion_id = 0x140") == 4);
    // Idle in 0000.mot and 0001.mot of one character: same hash; different characters: different hashes.
    CHECK(test::query_integer(db, "SELECT COUNT(DISTINCT content_hash) FROM animations WHERE motion_id = 0") == 12);
    CHECK(test::query_integer(db, "SELECT COUNT(DISTINCT content_hash) FROM bone_tracks WHERE bone_id = 118") == 2);
  }

  SECTION("named queries for purposes and characters") {
    auto purposes = test::run_named(db, "purposes", {});
    std::map<std::string, std::string> by_id;
    for (const auto& row : purposes.rows) {
      CHECK(cell_text(row[0]) == "gnt4");  // every row says whose numbers it is
      by_id[cell_text(row[2])] = cell_text(row[3]) + " | " + cell_text(row[5]);
    }
    CHECK(by_id["0x0140"] == "Throw | gar, kak, nar, sas");
    CHECK(by_id["0x0090"] == "5B | sak");
    CHECK(purposes.rows.size() == 5);
    auto characters = test::run_named(db, "characters", {});
    REQUIRE(characters.rows.size() == 13);  // 12 + 'bad'
    CHECK(cell_text(characters.rows[0][1]) == "bad");
    auto nar = std::find_if(characters.rows.begin(), characters.rows.end(),
                            [](const auto& row) { return cell_text(row[1]) == "nar"; });
    REQUIRE(nar != characters.rows.end());
    CHECK(cell_text((*nar)[0]) == "gnt4");
    CHECK(cell_text((*nar)[2]) == "Naruto");
    CHECK(cell_text((*nar)[4]) == "5");
    auto animations = test::run_named(db, "animations", {{"character", "sak"}});
    REQUIRE(animations.rows.size() == 4);
    CHECK(cell_text(animations.rows[2][6]) == "5B");
  }
}

TEST_CASE("re-indexing a label replaces it and other labels stay", "[end_to_end]") {
  test::TempDir dir;
  const auto root = write_dump(dir);
  auto options = options_for(root, dir / "dump.db", "ntsc");
  run_index(options);
  run_index(options);
  options.label = "pal";
  std::filesystem::remove(std::filesystem::path(root) / "files/chr/nar/0000.mot");
  // The same folder as another dump: refused unless asked for (every answer over both counts twice).
  CHECK_THROWS_AS(run_index(options), DumpsOverlap);
  options.allow_overlap = true;
  run_index(options);
  auto db = open_read_only(options.database);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM dumps") == 2);
  CHECK(test::query_integer(db, "SELECT file_count FROM dumps WHERE label = 'ntsc'") == 29);
  CHECK(test::query_integer(db, "SELECT file_count FROM dumps WHERE label = 'pal'") == 28);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM files f JOIN dumps d ON d.id = f.dump_id WHERE d.label = 'ntsc'") == 29);
  CHECK(test::run_named(db, "bone-users", {{"bone", "118"}, {"dump", "pal"}}).rows.size() == 4);
  CHECK(test::run_named(db, "bone-users", {{"bone", "118"}, {"dump", "ntsc"}}).rows.size() == 5);
  // Without a dump, a character's animations are counted over every file of every dump (the query
  // counts per file, then sums): ino's two files in each dump are 4, nar's removed file leaves 1.
  std::vector<std::string> both;
  for (const auto& row : test::run_named(db, "bone-users", {{"bone", "118"}}).rows)
    both.push_back(cell_text(row[1]) + "=" + cell_text(row[3]));
  CHECK(both == std::vector<std::string>{"gar=2", "ino=4", "kak=2", "nar=1", "sas=2"});
  // No orphans were left behind by the replacement.
  CHECK(test::foreign_key_violations(db) == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes WHERE track_id NOT IN (SELECT id FROM bone_tracks)") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM bone_tracks WHERE animation_id NOT IN (SELECT id FROM animations)") == 0);
  CHECK(test::query_integer(db, "SELECT COUNT(*) FROM ref_animation_purposes") == 131);
}

TEST_CASE("files over --max-file-size are detected but not parsed", "[end_to_end]") {
  test::TempDir dir;
  const auto root = write_dump(dir);
  auto options = options_for(root + "/files/chr/sas", dir / "small.db", "default");
  options.max_file_size = 1024;
  const auto summary = run_index(options);
  auto db = open_read_only(options.database);
  CHECK(summary.totals.errors == 1);  // 0000.mot is larger than 1 KiB; 0001.mot is not
  CHECK_THAT(cell_text(run_read_only_sql(db, "SELECT error FROM files WHERE path = '0000.mot'").rows.at(0).at(0)),
             Catch::Contains("over the 1024-byte limit"));
}
