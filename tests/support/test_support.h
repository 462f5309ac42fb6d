#pragma once
// Helpers shared by the tests: temporary folders, file bytes, the ../shared corpus.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/sql_runner.h"
#include "output/result_table.h"  // cell_text for the rows tests compare
#include "support/shared_dir.h"
#include "support/skip.h"

namespace animdex::test {

namespace fs = std::filesystem;

// A fresh folder under the system temp dir, removed with everything in it at scope exit.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& relative) const { return path_ / relative; }

 private:
  fs::path path_;
};

std::vector<std::byte> read_bytes(const fs::path& path);
void write_bytes(const fs::path& path, const std::vector<std::byte>& bytes);
void write_text(const fs::path& path, const std::string& text);
std::string read_text(const fs::path& path);
// How many times `part` occurs in `text`, without overlaps (tags in a page, lines in a report).
std::size_t count_of(const std::string& text, const std::string& part);
std::vector<std::byte> bytes_of(const std::string& text);


// The sample dump (src/sample) without its broken files, at `root`: `characters` GNT characters,
// and the KH2 and NSBCA samples when asked. Returns `root`.
fs::path write_clean_sample(const fs::path& root, int characters, bool kh2_and_nsbca);

// The single integer a query returns (first column of the first row).
std::int64_t query_integer(SQLite::Database& db, const std::string& sql);

// References to rows that do not exist (PRAGMA foreign_key_check): every index writes without
// foreign-key enforcement (indexer/db_writer.cpp), so every test that indexes checks this is 0.
std::int64_t foreign_key_violations(SQLite::Database& db);

// Runs a named query from queries/ with the given values and its declared defaults.
ResultTable run_named(SQLite::Database& db, const std::string& name, const Bindings& given = {});

// A result's rows, each as its cells from `first_column` on joined by `separator` (NULL as an empty
// cell): what tests compare with the expected rows.
std::vector<std::string> table_lines(const ResultTable& table, std::string_view separator = "|",
                                     std::size_t first_column = 0);

// The rows `sql` returns, as table_lines gives them.
std::vector<std::string> sql_lines(SQLite::Database& db, const std::string& sql);

}  // namespace animdex::test
