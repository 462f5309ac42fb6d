// The writer binds each column by the parameter number table_columns::parameter() computes at
// compile time: here every number is checked against SQLite's own for the generated INSERT.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <string>

#include "db/database.h"
#include "indexer/table_columns.h"

using namespace animdex;

namespace {

template <std::size_t N>
void check_numbers(sqlite3* db, std::string_view table, const std::string_view (&columns)[N]) {
  sqlite3_stmt* statement = nullptr;
  const std::string sql = table_columns::insert_sql(table, columns);
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
  CHECK(sqlite3_bind_parameter_count(statement) == static_cast<int>(N));
  for (std::size_t i = 0; i < N; ++i) {
    INFO(table << "." << columns[i]);
    const std::string name = ":" + std::string(columns[i]);
    CHECK(sqlite3_bind_parameter_index(statement, name.c_str()) == static_cast<int>(i) + 1);
  }
  sqlite3_finalize(statement);
}

}  // namespace

TEST_CASE("compile-time parameter numbers match SQLite's for every insert the writer makes", "[indexer]") {
  using namespace table_columns;
  static_assert(parameter(kBoneTracks, "animation_id") == 1);
  static_assert(parameter(kBoneTracks, "keys") == 12);
  static_assert(parameter(kKeySplineRows, "p6") == parameter(kKeySplineRows, "p1") + 5);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, schema_ddl().c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  check_numbers(db, "files", kFiles);
  check_numbers(db, "animations", kAnimations);
  check_numbers(db, "bone_tracks", kBoneTracks);
  check_numbers(db, "keyframe_rows", kKeyframeRows);
  check_numbers(db, "key_spline_rows", kKeySplineRows);
  check_numbers(db, "track_behaviors", kTrackBehaviors);
  check_numbers(db, "scan_warnings", kScanWarnings);
  sqlite3_close(db);
}
