// Runs tests/sql/*.test (sqllogictest style, as DuckDB's) against a dump built by the project's
// writers: the sample dump with KH2 and NSBCA files, four characters, indexed as label `sample`.
//
// A file is a list of records separated by blank lines; `#` starts a comment line.
//   query                      SQL follows, up to a line `----`, then the expected rows
//   named NAME [P=V]...        the named query NAME with its parameters, `----`, the expected rows
// Rows are the cells joined by a tab, NULL as `NULL`, numbers as `animdex sql --format csv` prints
// them. A record without rows after `----` expects none. A named query whose values do not exist
// expects, instead of rows, one line `error: TEXT`: the usage error's message contains TEXT. On a
// mismatch the test names the file, the line and shows both sides.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "db/database.h"
#include "db/parameter_checks.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "indexer/pipeline.h"
#include "sample/sample_dump.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

struct Record {
  std::size_t line = 0;
  std::string named;        // named query, or empty for SQL
  Bindings parameters;      // for a named query
  std::string sql;
  std::vector<std::string> expected;
};

std::vector<Record> read_records(const fs::path& path) {
  std::ifstream in(path);
  std::vector<Record> records;
  std::string line;
  std::size_t number = 0;
  enum { between, sql, rows } state = between;
  while (std::getline(in, line)) {
    ++number;
    if (state == between) {
      if (line.empty() || line.starts_with("#")) continue;
      Record record;
      record.line = number;
      std::istringstream words(line);
      std::string verb;
      words >> verb;
      if (verb == "named") {
        words >> record.named;
        for (std::string assignment; words >> assignment;) {
          const auto equals = assignment.find('=');
          record.parameters.emplace_back(assignment.substr(0, equals), assignment.substr(equals + 1));
        }
      } else if (verb != "query") {
        FAIL(path.filename().string() << ":" << number << ": expected `query` or `named`, found: " << line);
      }
      records.push_back(record);
      state = record.named.empty() ? sql : rows;
      if (state == rows) {
        std::getline(in, line);  // the `----` line of a named query
        ++number;
        if (line != "----") FAIL(path.filename().string() << ":" << number << ": expected ----");
      }
    } else if (state == sql) {
      if (line == "----") state = rows;
      else records.back().sql += line + "\n";
    } else if (line.empty()) {
      state = between;
    } else {
      records.back().expected.push_back(line);
    }
  }
  return records;
}

std::vector<std::string> rows_of(const ResultTable& table) {
  std::vector<std::string> rows;
  for (const auto& row : table.rows) {
    std::string text;
    for (std::size_t c = 0; c < row.size(); ++c)
      text += (c ? "\t" : "") + (std::holds_alternative<std::monostate>(row[c]) ? "NULL" : cell_text(row[c]));
    rows.push_back(text);
  }
  return rows;
}

fs::path sample_database(const test::TempDir& dir) {
  SampleDumpOptions options;
  options.character_count = 4;
  options.include_kh2 = true;
  options.include_nsbca = true;
  write_sample_dump(dir / "dump", options);
  IndexOptions index;
  index.roots = {dir / "dump"};
  index.database = dir / "sample.db";
  index.label = "sample";
  run_index(index);
  return index.database;
}

}  // namespace

TEST_CASE("tests/sql/*.test: named queries and views answer as written down", "[sql][queries]") {
  test::TempDir dir;
  auto db = open_read_only(sample_database(dir));
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(ANIMDEX_SOURCE_DIR) / "tests" / "sql"))
    if (entry.path().extension() == ".test") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 4);
  std::size_t checked = 0;
  for (const auto& file : files)
    for (const auto& record : read_records(file)) {
      INFO(file.filename().string() << ":" << record.line);
      ResultTable result;
      if (record.named.empty()) {
        result = run_read_only_sql(db, record.sql);
      } else {
        const auto* query = find_named_query(record.named);
        REQUIRE(query);
        const bool expects_error = record.expected.size() == 1 && record.expected[0].starts_with("error: ");
        try {
          std::vector<std::string> notes;
          const auto parameters = check_parameter_values(db, *query, bind_parameters(*query, record.parameters), notes);
          CHECK_FALSE(expects_error);
          result = run_read_only_query(db, query->sql, parameters);
        } catch (const QueryUsageError& error) {
          REQUIRE(expects_error);
          CHECK_THAT(error.what(), Catch::Contains(record.expected[0].substr(7)));
          ++checked;
          continue;
        }
      }
      CHECK(rows_of(result) == record.expected);
      ++checked;
    }
  CHECK(checked >= 15);  // the records of the files above: a file that reads as empty fails here
}
