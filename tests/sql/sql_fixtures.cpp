// The fixtures of tests/sql/*.test. Each is a function of a folder: it writes its tree with the
// project's writers (src/sample, the container writers, tests/support), indexes it and leaves one
// database. What a fixture holds is said where it is built; the .test files say what they expect.
#include "sql/sql_fixtures.h"

#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

#include "containers/nds/nds_writer.h"
#include "db/database.h"
#include "indexer/pipeline.h"
#include "reference/reference_data.h"
#include "sample/sample_dump.h"
#include "sample/sample_images.h"
#include "support/gnt_trees.h"
#include "support/kh2_trees.h"
#include "support/nitro_trees.h"
#include "support/index_tree.h"
#include "support/test_support.h"

namespace animdex::sqltest {

namespace fs = std::filesystem;

namespace {

using Built = std::optional<std::string>;
using Builder = std::function<Built(const fs::path& work, const fs::path& database)>;

// The sample dump without its broken files (3 characters, KH2, NSBCA) and the images built from it
// (gnt4.iso, gnt4.ciso, kh2.iso, nitro.nds), under work/dump and work/images.
void write_sample_with_images(const fs::path& work) {
  SampleDumpOptions options;
  options.character_count = 3;
  options.include_problem_files = false;
  options.include_kh2 = options.include_nsbca = true;
  write_sample_dump(work / "dump", options);
  write_sample_images(work / "dump", work / "images");
}

// A database from SQL kept in tests/db/fixtures/ (made by an older animdex), then `setup`, then
// opened for writing as every index run opens it (which migrates it to the current schema) and
// given the reference tables.
void migrated_from(const char* fixture, const std::string& setup, const fs::path& database) {
  std::ifstream in(fs::path(ANIMDEX_SOURCE_DIR) / "tests/db/fixtures" / fixture);
  std::stringstream sql;
  sql << in.rdbuf();
  if (sql.str().empty()) throw std::runtime_error(fmt::format("tests/db/fixtures/{} is missing or empty", fixture));
  {
    SQLite::Database db(database.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec(sql.str());
    db.exec(setup);
  }
  auto db = open_for_writing(database);
  // The reference tables, as every index run loads them after opening: the named queries check
  // their values (a game's numbering) against them.
  load_reference_tables(db, ReferenceData::embedded());
  // A fixture named "migrated" is one: a migration that stopped short fails every file that uses it.
  const auto version = db.execAndGet("PRAGMA user_version").getInt();
  if (version != kSchemaVersion)
    throw std::runtime_error(fmt::format("{} migrated to schema version {}, not {}", fixture, version, kSchemaVersion));
}

const std::map<std::string, Builder>& fixtures() {
  static const std::map<std::string, Builder> all = {
      // The sample dump with KH2 and NSBCA files and its problem files, four characters, label `sample`.
      {"sample",
       [](const fs::path& work, const fs::path& database) -> Built {
         SampleDumpOptions options;
         options.character_count = 4;
         options.include_kh2 = true;
         options.include_nsbca = true;
         write_sample_dump(work / "dump", options);
         test::index_tree(work / "dump", database, "sample");
         return std::nullopt;
       }},
      // The four sample images (write_sample_with_images), indexed as one dump, label `images`.
      {"sample-images",
       [](const fs::path& work, const fs::path& database) -> Built {
         write_sample_with_images(work);
         test::index_tree(work / "images", database, "images");
         return std::nullopt;
       }},
      // The images beside the loose files they were built from, one dump each: `loose` (the GNT
      // files, dump/files), `iso` (gnt4.iso), `ciso` (gnt4.ciso), `loose-nds` (dump/nds),
      // `loose-kh2` (dump/kh2), `rom` (nitro.nds), `dvd` (kh2.iso).
      {"images-beside-loose",
       [](const fs::path& work, const fs::path& database) -> Built {
         write_sample_with_images(work);
         test::index_tree(work / "dump/files", database, "loose");
         test::index_tree(work / "images/gnt4.iso", database, "iso");
         test::index_tree(work / "images/gnt4.ciso", database, "ciso");
         test::index_tree(work / "dump/nds", database, "loose-nds");
         test::index_tree(work / "dump/kh2", database, "loose-kh2");
         test::index_tree(work / "images/nitro.nds", database, "rom");
         test::index_tree(work / "images/kh2.iso", database, "dvd");
         return std::nullopt;
       }},
      // Two versions of the GNT image under other names: `ntsc` (naruto-ntsc.iso) and `pal`
      // (G4NJDA.iso), where hak's 0001.mot is kak's.
      {"two-image-versions",
       [](const fs::path& work, const fs::path& database) -> Built {
         write_sample_with_images(work);
         const auto v1 = work / "ntsc";
         const auto v2 = work / "pal";
         write_sample_images(work / "dump", v1);
         fs::copy_file(work / "dump/files/chr/kak/0001.mot", work / "dump/files/chr/hak/0001.mot",
                       fs::copy_options::overwrite_existing);
         write_sample_images(work / "dump", v2);
         fs::rename(v1 / "gnt4.iso", v1 / "naruto-ntsc.iso");
         fs::rename(v2 / "gnt4.iso", v2 / "G4NJDA.iso");
         test::index_tree(v1 / "naruto-ntsc.iso", database, "ntsc");
         test::index_tree(v2 / "G4NJDA.iso", database, "pal");
         return std::nullopt;
       }},
      // Twelve generated GNT characters and the problem files (test::write_gnt_twelve), label `ntsc`.
      {"gnt-twelve",
       [](const fs::path& work, const fs::path& database) -> Built {
         auto index = test::index_options(test::write_gnt_twelve(work / "dump"), database, "ntsc");
         index.threads = 2;
         run_index(index);
         return std::nullopt;
       }},
      // DS models and animations linked by name or node count (test::write_nitro_link_tree).
      {"nitro-links",
       [](const fs::path& work, const fs::path& database) -> Built {
         test::write_nitro_link_tree(work / "dump");
         test::index_tree(work / "dump", database, "default");
         return std::nullopt;
       }},
      // KH2 motions and models for each step of the skeleton link (test::write_kh2_link_tree).
      {"kh2-links",
       [](const fs::path& work, const fs::path& database) -> Built {
         const auto dump = work / "dump";
         test::write_kh2_link_tree(dump);
         test::index_tree(dump, database, "default");
         return std::nullopt;
       }},
      // The same tree re-indexed after a/door.nsbmd is removed.
      {"nitro-links-model-removed",
       [](const fs::path& work, const fs::path& database) -> Built {
         test::write_nitro_link_tree(work / "dump");
         test::index_tree(work / "dump", database, "default");
         fs::remove(work / "dump/a/door.nsbmd");
         test::index_tree(work / "dump", database, "default");
         return std::nullopt;
       }},
      // One DS ROM with two folders, data/red and data/blue, each a model `door` and its animation.
      {"nitro-rom-folders",
       [](const fs::path& work, const fs::path& database) -> Built {
         const auto rom =
             nds::build_nds({{"data/red/door.nsbmd", test::nitro_model_file("door", {"root", "red_hinge"})},
                             {"data/red/door.nsbca", test::nitro_joint_animation("door", 2)},
                             {"data/blue/door.nsbmd", test::nitro_model_file("door", {"root", "blue_hinge"})},
                             {"data/blue/door.nsbca", test::nitro_joint_animation("door", 2)}});
         test::write_bytes(work / "game/game.nds", rom);
         test::index_tree(work / "game", database, "default");
         return std::nullopt;
       }},
      // A BTA0, a BTP0 and a BMA0 (test::write_nitro_kinds_tree), label `default`.
      {"nitro-kinds",
       [](const fs::path& work, const fs::path& database) -> Built {
         test::write_nitro_kinds_tree(work / "dump");
         test::index_tree(work / "dump", database, "default");
         return std::nullopt;
       }},
      // The 9 real NARCs of ../shared/corpus/real/containers (unlabelled: dump `default`).
      {"real-narcs",
       [](const fs::path&, const fs::path& database) -> Built {
         const auto shared = test::shared_dir();
         if (!shared) return "../shared/corpus/real is absent";
         test::index_tree(*shared / "corpus/real/containers", database, "default");
         return std::nullopt;
       }},
      // The real NARCs as `narcs` beside the real loose NSBCA files as `loose`.
      {"real-narcs-and-loose",
       [](const fs::path&, const fs::path& database) -> Built {
         const auto shared = test::shared_dir();
         if (!shared) return "../shared/corpus/real is absent";
         test::index_tree(*shared / "corpus/real/containers", database, "narcs");
         test::index_tree(*shared / "corpus/real/nsbca", database, "loose");
         return std::nullopt;
       }},
      // tests/db/fixtures/schema_v1.sql with one dump `old` and one file a.mot, migrated.
      {"migrated-v1",
       [](const fs::path&, const fs::path& database) -> Built {
         migrated_from("schema_v1.sql",
                       "PRAGMA user_version = 1;"
                       "INSERT INTO dumps(label, root, indexed_at) VALUES ('old', '/r', '2026-01-01T00:00:00Z');"
                       "INSERT INTO files(dump_id, path, format, size, status) VALUES (1, 'a.mot', 'unknown', 3, 'unknown');",
                       database);
         return std::nullopt;
       }},
      // tests/db/fixtures/database_v7.sql (a real KH2 motion set and a real NSBCA file at v7), migrated.
      {"migrated-v7",
       [](const fs::path&, const fs::path& database) -> Built {
         migrated_from("database_v7.sql", "PRAGMA user_version = 7; PRAGMA application_id = 1095648344", database);
         return std::nullopt;
       }},
  };
  return all;
}

}  // namespace

std::vector<std::string> fixture_names() {
  std::vector<std::string> names;
  for (const auto& [name, builder] : fixtures()) names.push_back(name);
  return names;
}

std::optional<std::string> build_fixture(const std::string& name, const fs::path& work, const fs::path& database) {
  const auto found = fixtures().find(name);
  if (found == fixtures().end()) throw std::invalid_argument("no fixture " + name);
  fs::create_directories(work);
  return found->second(work, database);
}

}  // namespace animdex::sqltest
