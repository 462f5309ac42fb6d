// `ref_formats` holds one row per registered format and container (and companion) and no other, so
// the SQL fixtures name a few representative rows and a new format needs no line there.
#include <catch2/catch.hpp>

#include <set>

#include "containers/container_registry.h"
#include "db/database.h"
#include "formats/registry.h"
#include "reference/reference_data.h"
#include "support/test_support.h"

using namespace animdex;

TEST_CASE("ref_formats lists exactly the registered formats and containers", "[db][reference]") {
  test::TempDir dir;
  auto db = open_for_writing(dir / "formats.db");
  load_reference_tables(db, ReferenceData::embedded());
  std::set<std::string> expected;
  for (const auto& format : registered_formats()) expected.insert(std::string(format.id) + " animation");
  for (const auto& container : registered_containers()) {
    expected.insert(std::string(container.id) + " container");
    if (!container.companion_format.empty()) expected.insert(std::string(container.companion_format) + " container_data");
  }
  std::set<std::string> stored;
  SQLite::Statement rows(db, "SELECT format || ' ' || kind FROM ref_formats");
  while (rows.executeStep()) stored.insert(rows.getColumn(0).getString());
  CHECK(stored == expected);
  CHECK(stored.size() > 20);
}
