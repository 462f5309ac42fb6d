// Issue 39 item 5: names that help. A mistyped query, parameter or value names the nearest ones;
// one case rule for every parameter; a KH2 character by its object name.
#include <catch2/catch.hpp>

#include "cli/exit_codes.h"
#include "db/database.h"
#include "support/cli_run.h"
#include "support/test_support.h"

using namespace animdex;

namespace {

struct Indexed {
  test::TempDir dir;
  std::string db;
  Indexed() : db((dir / "s.db").string()) {
    REQUIRE(test::run({"sample", (dir / "s").string(), "--kh2", "--no-problem-files"}).code == 0);
    REQUIRE(test::run({"index", (dir / "s").string(), "--db", db, "--quiet"}).code == 0);
  }
};

}  // namespace

TEST_CASE("a mistyped query, parameter or value names the nearest ones", "[cli][query][names]") {
  Indexed s;
  const auto query = test::run_capturing({"query", "bone-user", "--db", s.db, "-p", "bone", "3"});
  CHECK(query.code == kExitUsage);
  CHECK(query.err.find("no named query 'bone-user'; nearest: bone-users") != std::string::npos);
  const auto parameter = test::run_capturing({"query", "bone-users", "--db", s.db, "-p", "bones", "3"});
  CHECK(parameter.code == kExitUsage);
  CHECK(parameter.err.find("has no parameter 'bones'; nearest: bone") != std::string::npos);
  const auto value = test::run_capturing({"query", "bone-users", "--db", s.db, "-p", "bone", "hi"});
  CHECK(value.code == kExitUsage);
  CHECK(value.err.find("nearest: hip") != std::string::npos);
  // A mistyped file name: the file names nearest to it.
  const auto file = test::run_capturing({"query", "kh2-motions", "--db", s.db, "-p", "file", "obj/P_SAMPL3.mset"});
  CHECK(file.code == kExitUsage);
  CHECK(file.err.find("(-p file; nearest: P_SAMPLE.mset;") != std::string::npos);
}

TEST_CASE("one case rule for every parameter: as typed, else the one stored value equal ignoring case",
          "[cli][query][names]") {
  Indexed s;
  const auto game = test::run_capturing({"query", "characters", "--db", s.db, "-p", "game", "KH2", "--format", "csv"});
  CHECK(game.code == kExitOk);
  CHECK(game.err.find("-p game 'KH2' taken as 'kh2'") != std::string::npos);
  const auto file = test::run_capturing({"query", "kh2-motions", "--db", s.db, "-p", "file", "p_sample.mset", "--format", "csv"});
  CHECK(file.code == kExitOk);
  CHECK(file.err.find("taken as 'P_SAMPLE.mset'") != std::string::npos);
  CHECK(test::count_of(file.out, "P_SAMPLE.mset") > 0);
  const auto dump = test::run_capturing({"query", "characters", "--db", s.db, "-p", "dump", "S", "--format", "csv"});
  CHECK(dump.code == kExitOk);
  CHECK(dump.err.find("-p dump 'S' taken as 's'") != std::string::npos);
  const auto bone = test::run_capturing({"query", "bone-users", "--db", s.db, "-p", "bone", "HIP", "--format", "csv"});
  CHECK(bone.code == kExitOk);
  CHECK(bone.err.find("taken as 'hip'") != std::string::npos);
  // A name pattern, as SQL's LIKE reads it (ASCII case ignored): every bone whose name matches.
  const auto pattern = test::run_capturing({"query", "bone-users", "--db", s.db, "-p", "bone", "HI%", "--format", "csv"});
  CHECK(pattern.code == kExitOk);
  CHECK(pattern.out.find(",hip,") != std::string::npos);
  // Every name a pattern matched in a character's files, not one per file.
  const auto hair = test::run_capturing({"query", "bone-users", "--db", s.db, "-p", "bone", "HAIR%", "--format", "csv"});
  CHECK(hair.code == kExitOk);
  CHECK(hair.out.find("\"hair base, hair left 1, hair left 2, hair left 3, hair right 1, hair right 2, hair right 3\"") !=
        std::string::npos);
  const auto none = test::run_capturing({"query", "bone-users", "--db", s.db, "-p", "bone", "zz%"});
  CHECK(none.code == kExitUsage);
  CHECK(none.err.find("no bone name matches 'zz%'") != std::string::npos);
}

TEST_CASE("a KH2 character is found by its object name in the reference (sora is P_EX100)", "[cli][query][names]") {
  test::TempDir dir;
  const auto path = dir / "k.db";
  {
    auto db = open_for_writing(path);
    db.exec("INSERT INTO dumps(id, label, root, indexed_at) VALUES (1, 'k', '/k', 'now'); "
            "INSERT INTO files(id, dump_id, path, character, format, size, status) VALUES "
            "(1, 1, 'obj/P_EX100.mset', 'P_EX100', 'kh2_mset', 4, 'ok'); "
            "INSERT INTO animations(id, file_id, slot, motion_id, name, track_count, key_count, content_hash, shape_hash) "
            "VALUES (1, 1, 0, 0, 'IDLE', 1, 1, 'h', 's'); "
            // The reference tables are filled by index: the one row this test needs.
            "INSERT OR REPLACE INTO ref_characters(game, code, internal_id, name) VALUES ('kh2', 'P_EX100', 84, '(P) Sora')");
  }
  const auto sora = test::run_capturing({"query", "animations", "--db", path.string(), "-p", "character", "sora",
                                         "--format", "csv"});
  INFO(sora.err);
  CHECK(sora.code == kExitOk);
  CHECK(sora.err.find("-p character 'sora' taken as 'P_EX100'") != std::string::npos);
  CHECK(sora.out.find("P_EX100") != std::string::npos);
}
