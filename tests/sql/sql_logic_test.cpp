// Runs tests/sql/*.test (sqllogictest style, as DuckDB's): SQL and named queries with the rows they
// must answer, against databases built by the project's own writers and indexer (sql_fixtures.cpp).
// The SQL assertions of the index, container, Nitro and migration tests live there, one record each.
//
// A file is a list of records separated by blank lines; a line starting with `#` is a comment.
//   fixture NAME               first record of a file (default `sample`): the database the file's
//                              records run on, built by sql_fixtures.cpp (each file gets its own
//                              copy, so statements in one file never reach another). A fixture that
//                              needs ../shared/corpus/real skips the whole file, saying so, where
//                              it is absent.
//   statement ok               SQL follows (to the blank line): it must run without an error, on a
//                              connection that may write (to set a database up for the next records).
//   statement error            SQL, then a line `----`, then one line of text: running the SQL must
//                              fail with a message containing that text.
//   query [TYPES] [SORT]       SQL up to a line `----`, then the expected rows, to the blank line.
//                              Queries run read-only, as `animdex sql` runs them. TYPES (optional,
//                              letters I, R, T as DuckDB writes them: one per column) checks the
//                              number of columns. SORT is `nosort` (the default: rows in the order
//                              the SQL returns them) or `rowsort` (both sides sorted as text before
//                              comparing, for SQL without an ORDER BY that decides every row).
//   named NAME [P=V]... [rowsort]
//                              the named query NAME (queries/) with its parameters, `----`, the
//                              expected rows. Instead of rows, one line `error: TEXT` expects the
//                              usage error of a value that does not exist, its message containing TEXT.
// Rows are the cells joined by a tab, NULL as `NULL`, numbers as `animdex sql --format csv` prints
// them. A record without rows after `----` expects none. Anything else -- an unknown word, a query
// without `----`, a `fixture` line after the first record, an unknown fixture -- fails the file with
// its line, so that a misspelt record cannot pass by being skipped. On a mismatch the test names the
// file and line and shows both sides.
#include <catch2/catch.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "db/database.h"
#include "db/parameter_checks.h"
#include "db/query_catalog.h"
#include "db/sql_runner.h"
#include "sql/sql_fixtures.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

enum class Kind { query, named, statement_ok, statement_error };

struct Record {
  std::size_t line = 0;
  Kind kind = Kind::query;
  std::string named;      // the named query
  Bindings parameters;    // of the named query
  std::string sql;
  std::size_t columns = 0;  // from TYPES; 0 when not given
  bool rowsort = false;
  std::vector<std::string> expected;
};

struct TestFile {
  std::string fixture = "sample";
  std::vector<Record> records;
  std::string syntax_error;  // empty when the file reads
};

// Reads a .test file; the first syntax error found is kept in syntax_error (with its line).
TestFile read_test_file(const fs::path& path) {
  std::ifstream in(path);
  TestFile file;
  std::string line;
  std::size_t number = 0;
  enum { between, sql, rows, error_text } state = between;
  const auto fail = [&](const std::string& what) {
    if (file.syntax_error.empty()) file.syntax_error = path.filename().string() + ":" + std::to_string(number) + ": " + what;
  };
  while (std::getline(in, line)) {
    ++number;
    if (state == between) {
      if (line.empty() || line.starts_with("#")) continue;
      std::istringstream words(line);
      std::string verb;
      words >> verb;
      if (verb == "fixture") {
        if (!file.records.empty()) fail("`fixture` comes before the first record");
        words >> file.fixture;
        continue;
      }
      Record record;
      record.line = number;
      std::vector<std::string> rest;
      for (std::string word; words >> word;) rest.push_back(word);
      if (verb == "statement") {
        if (rest.size() != 1 || (rest[0] != "ok" && rest[0] != "error")) fail("expected `statement ok` or `statement error`");
        record.kind = rest.empty() || rest[0] == "ok" ? Kind::statement_ok : Kind::statement_error;
        state = sql;
      } else if (verb == "query" || verb == "named") {
        record.kind = verb == "query" ? Kind::query : Kind::named;
        std::size_t at = 0;
        if (record.kind == Kind::named) {
          if (rest.empty()) fail("`named` needs a query's name");
          else record.named = rest[at++];
        }
        for (; at < rest.size(); ++at) {
          const auto& word = rest[at];
          if (word == "rowsort") record.rowsort = true;
          else if (word == "nosort") record.rowsort = false;
          else if (record.kind == Kind::named && word.find('=') != std::string::npos)
            record.parameters.emplace_back(word.substr(0, word.find('=')), word.substr(word.find('=') + 1));
          else if (record.kind == Kind::query && at == 0 && word.find_first_not_of("IRT") == std::string::npos)
            record.columns = word.size();
          else fail("unknown option `" + word + "`");
        }
        if (record.kind == Kind::named) {
          if (!std::getline(in, line) || (++number, line != "----")) fail("expected `----` after `named`");
          state = rows;
        } else {
          state = sql;
        }
      } else {
        fail("expected `fixture`, `statement`, `query` or `named`, found: " + line);
        continue;
      }
      file.records.push_back(record);
    } else if (state == sql) {
      auto& record = file.records.back();
      if (line == "----") {
        if (record.kind == Kind::statement_ok) fail("`statement ok` expects no `----`");
        state = record.kind == Kind::statement_error ? error_text : rows;
      } else if (line.empty()) {
        if (record.kind != Kind::statement_ok) fail("a query or `statement error` ends before its `----`");
        if (record.sql.empty()) fail("a record without SQL");
        state = between;
      } else {
        record.sql += line + "\n";
      }
    } else if (state == error_text) {
      if (line.empty()) {
        fail("`statement error` needs the text of its message after `----`");
      } else {
        file.records.back().expected.push_back(line);
        state = between;
        if (!std::getline(in, line)) break;
        ++number;
        if (!line.empty()) fail("`statement error` expects one line of message text");
      }
      state = between;
    } else if (line.empty()) {
      state = between;
    } else {
      file.records.back().expected.push_back(line);
    }
  }
  if (state == sql && !file.records.empty() && file.records.back().kind != Kind::statement_ok)
    fail("the file ends before a record's `----`");
  if (state == error_text) fail("the file ends before a `statement error`'s message");
  return file;
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

// Each fixture is built once per run, in one folder kept for the whole run; every file copies it.
struct Fixtures {
  test::TempDir dir;
  std::map<std::string, std::optional<std::string>> built;  // name -> reason to skip

  // The fixture's database, or the reason it is skipped.
  std::variant<fs::path, std::string> database(const std::string& name) {
    const auto database = dir / (name + ".db");
    if (!built.count(name)) built[name] = sqltest::build_fixture(name, dir / name, database);
    if (built[name]) return *built[name];
    return database;
  }
};

// Runs one file's records; returns how many were checked.
std::size_t run_file(const fs::path& path, Fixtures& fixtures, const test::TempDir& scratch) {
  const auto file = read_test_file(path);
  INFO(path.filename().string());
  if (!file.syntax_error.empty()) FAIL(file.syntax_error);
  REQUIRE_FALSE(file.records.empty());
  const auto names = sqltest::fixture_names();
  if (std::find(names.begin(), names.end(), file.fixture) == names.end())
    FAIL(path.filename().string() << ": no fixture `" << file.fixture << "` (sql_fixtures.cpp)");
  const auto source = fixtures.database(file.fixture);
  if (const auto* reason = std::get_if<std::string>(&source)) {
    WARN(path.filename().string() << ": skipped, fixture `" << file.fixture << "`: " << *reason);
    return 0;
  }
  // A copy per file: a file's statements are its own.
  const auto database = scratch / (path.stem().string() + ".db");
  fs::copy_file(std::get<fs::path>(source), database, fs::copy_options::overwrite_existing);
  std::size_t checked = 0;
  for (const auto& record : file.records) {
    INFO(path.filename().string() << ":" << record.line);
    if (record.kind == Kind::statement_ok || record.kind == Kind::statement_error) {
      SQLite::Database writer(database.string(), SQLite::OPEN_READWRITE);
      std::string error;
      try {
        writer.exec(record.sql);
      } catch (const std::exception& e) {
        error = e.what();
      }
      if (record.kind == Kind::statement_ok) {
        CHECK(error == "");
      } else {
        CHECK_FALSE(error.empty());
        CHECK_THAT(error, Catch::Contains(record.expected.at(0)));
      }
      ++checked;
      continue;
    }
    auto db = open_read_only(database);
    ResultTable result;
    if (record.kind == Kind::query) {
      result = run_read_only_sql(db, record.sql);
    } else {
      const auto* query = find_named_query(record.named);
      INFO("named query " << record.named);
      REQUIRE(query);
      const bool expects_error = record.expected.size() == 1 && record.expected[0].starts_with("error: ");
      try {
        std::vector<std::string> notes;
        const auto parameters = check_parameter_values(db, *query, bind_parameters(*query, record.parameters), notes);
        CHECK_FALSE(expects_error);
        result = run_read_only_query(db, query->sql, parameters);
      } catch (const QueryUsageError& error) {
        if (!expects_error) {
          std::cerr << path.filename().string() << ":" << record.line << ": usage error: " << error.what() << "\n";
          FAIL_CHECK("usage error: " << error.what());
          ++checked;
          continue;
        }
        CHECK_THAT(error.what(), Catch::Contains(record.expected[0].substr(7)));
        ++checked;
        continue;
      }
    }
    if (record.columns) CHECK(result.columns.size() == record.columns);
    auto actual = rows_of(result);
    auto expected = record.expected;
    if (record.rowsort) {
      std::sort(actual.begin(), actual.end());
      std::sort(expected.begin(), expected.end());
    }
    if (actual != expected) {
      // Both sides as the file writes them, so that the difference reads line by line.
      std::string shown = "expected:\n";
      for (const auto& row : expected) shown += "  " + row + "\n";
      shown += "actual:\n";
      for (const auto& row : actual) shown += "  " + row + "\n";
      // Unwrapped on stderr too (Catch wraps long rows), to be read or pasted into the file.
      std::cerr << path.filename().string() << ":" << record.line << ": " << shown;
      FAIL_CHECK(shown);
    }
    ++checked;
  }
  return checked;
}

std::vector<fs::path> test_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(ANIMDEX_SOURCE_DIR) / "tests" / "sql"))
    if (entry.path().extension() == ".test") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("tests/sql/*.test: every record answers as written down", "[sql][queries]") {
  Fixtures fixtures;
  test::TempDir scratch;
  const auto files = test_files();
  REQUIRE(files.size() >= 10);
  std::size_t checked = 0;
  // ANIMDEX_SQL_TEST=NAME.test runs one file (while writing one).
  const char* only = std::getenv("ANIMDEX_SQL_TEST");
  for (const auto& file : files)
    if (!only || file.filename() == only) checked += run_file(file, fixtures, scratch);
  // The records of the files above: a file that reads as empty, or a runner that skips records, fails here.
  if (!only) CHECK(checked >= 100);
}

// The reader itself: a misspelt or unfinished record is an error with its line, never a record
// skipped in silence.
TEST_CASE("tests/sql runner: a file with a syntax error is refused with its line", "[sql]") {
  test::TempDir dir;
  const auto check = [&](const std::string& text, const std::string& message) {
    test::write_text(dir / "bad.test", text);
    const auto file = read_test_file(dir / "bad.test");
    INFO(text);
    CHECK_THAT(file.syntax_error, Catch::Contains(message));
  };
  check("querry\nSELECT 1\n----\n1\n", "bad.test:1: expected `fixture`, `statement`, `query` or `named`");
  check("query\nSELECT 1\n\nquery\nSELECT 2\n----\n2\n", "bad.test:3: a query or `statement error` ends before its `----`");
  check("query\nSELECT 1\n", "the file ends before a record's `----`");
  check("statement error\nSELECT nope\n", "the file ends before a record's `----`");
  check("statement maybe\nSELECT 1\n", "bad.test:1: expected `statement ok` or `statement error`");
  check("query rowsorted\nSELECT 1\n----\n1\n", "unknown option `rowsorted`");
  check("query\nSELECT 1\n----\n1\n\nfixture sample\n", "`fixture` comes before the first record");
  check("named bone-users bone=1\n1\n", "expected `----` after `named`");
  // A file that reads: no error, its records as written.
  test::write_text(dir / "good.test", "fixture sample\n# a comment\nstatement ok\nCREATE TABLE t(x)\n\nquery I rowsort\n"
                                      "SELECT 2 UNION ALL SELECT 1\n----\n1\n2\n\nstatement error\nSELECT nope\n----\n"
                                      "no such column\n");
  const auto good = read_test_file(dir / "good.test");
  CHECK(good.syntax_error == "");
  REQUIRE(good.records.size() == 3);
  CHECK(good.records[1].columns == 1);
  CHECK(good.records[1].rowsort);
  CHECK(good.records[1].expected == std::vector<std::string>{"1", "2"});
  CHECK(good.records[2].expected == std::vector<std::string>{"no such column"});
}
