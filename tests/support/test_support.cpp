#include "support/test_support.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <unistd.h>

#include "db/query_catalog.h"
#include "sample/sample_dump.h"

namespace animdex::test {

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ = fs::temp_directory_path() /
          ("animdex-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::vector<std::byte> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i) bytes[i] = static_cast<std::byte>(chars[i]);
  return bytes;
}

void write_bytes(const fs::path& path, const std::vector<std::byte>& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> bytes(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) bytes[i] = static_cast<std::byte>(text[i]);
  return bytes;
}

void write_text(const fs::path& path, const std::string& text) { write_bytes(path, bytes_of(text)); }

std::int64_t query_integer(SQLite::Database& db, const std::string& sql) {
  return std::get<std::int64_t>(run_read_only_sql(db, sql).rows.at(0).at(0));
}

std::int64_t foreign_key_violations(SQLite::Database& db) {
  return query_integer(db, "SELECT COUNT(*) FROM pragma_foreign_key_check");
}

ResultTable run_named(SQLite::Database& db, const std::string& name, const Bindings& given) {
  const auto* query = find_named_query(name);
  if (!query) throw std::runtime_error("no named query " + name);
  return run_read_only_query(db, query->sql, bind_parameters(*query, given));
}

fs::path write_clean_sample(const fs::path& root, int characters, bool kh2_and_nsbca) {
  SampleDumpOptions options;
  options.character_count = characters;
  options.include_problem_files = false;
  options.include_kh2 = kh2_and_nsbca;
  options.include_nsbca = kh2_and_nsbca;
  write_sample_dump(root, options);
  return root;
}

std::string read_text(const fs::path& path) {
  const auto bytes = read_bytes(path);
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

std::vector<std::string> table_lines(const ResultTable& table, std::string_view separator, std::size_t first_column) {
  std::vector<std::string> lines;
  for (const auto& row : table.rows) {
    std::string line;
    for (std::size_t c = first_column; c < row.size(); ++c) {
      if (c > first_column) line += separator;
      line += cell_text(row[c]);
    }
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> sql_lines(SQLite::Database& db, const std::string& sql) {
  return table_lines(run_read_only_sql(db, sql));
}

}  // namespace animdex::test
