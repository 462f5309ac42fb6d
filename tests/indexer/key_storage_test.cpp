// The two ways of storing keys answer alike: the same dumps indexed with `--keyframes blob` (the
// default) and `--keyframes rows` give the same output for every named query, both reports, `diff`
// and the `keyframes` and `key_splines` tables themselves.
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "cli/cli.h"
#include "db/database.h"
#include "db/query_catalog.h"
#include "reports/report_fixture.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

namespace {

// Output with the times an index finished (dumps.indexed_at, to the second) masked: the two
// databases are indexed one after the other, and may straddle a second.
std::string run(std::vector<std::string> args) {
  args.insert(args.begin(), "animdex");
  std::vector<const char*> argv;
  for (const auto& arg : args) argv.push_back(arg.c_str());
  std::ostringstream out;
  const int code = run_cli(static_cast<int>(argv.size()), argv.data(), out);
  static const std::regex indexed_at(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)");
  return fmt::format("exit {}\n{}", code, std::regex_replace(out.str(), indexed_at, "<time>"));
}

// A value for each required parameter of the named queries, naming something the dumps hold.
std::vector<std::string> parameters_of(const NamedQuery& query, const std::string& dump) {
  std::vector<std::string> args;
  for (const auto& parameter : query.parameters) {
    std::string value;
    if (parameter.name == "character") value = "sas";
    else if (parameter.name == "bone") value = "1";
    else if (parameter.name == "from") value = "v1";
    else if (parameter.name == "to") value = "v2";
    else if (parameter.name == "dump") value = dump;
    else if (parameter.required()) FAIL("no test value for required parameter " + parameter.name);
    if (!value.empty()) args.insert(args.end(), {"-p", parameter.name, value});
  }
  return args;
}

// Everything a user can ask of the database, as text.
std::vector<std::string> answers(const fs::path& database, const fs::path& docs) {
  const std::string db = database.string();
  std::vector<std::string> out;
  for (const auto& query : named_queries())
    for (const std::string dump : {"v1", "sample"}) {
      auto args = std::vector<std::string>{"query", query.name, "--db", db, "--format", "csv", "--max-rows", "100000"};
      const auto parameters = parameters_of(query, dump);
      args.insert(args.end(), parameters.begin(), parameters.end());
      out.push_back(query.name + " " + dump + ": " + run(args));
    }
  out.push_back(run({"report", "reuse", "--db", db, "--format", "csv"}));
  out.push_back(run({"report", "reuse", "--db", db, "--dump", "v1", "--tolerance", "0.001", "--format", "json"}));
  out.push_back(run({"diff", "--db", db, "--from", "v1", "--to", "v2", "--format", "json"}));
  std::string docs_run = run({"report", "docs", "--db", db, "--out", docs.string(), "--dump", "v2"});
  for (auto at = docs_run.find(docs.string()); at != std::string::npos; at = docs_run.find(docs.string()))
    docs_run.replace(at, docs.string().size(), "DOCS");
  out.push_back(docs_run);
  for (const auto& entry : fs::directory_iterator(docs))
    if (entry.is_regular_file()) {
      const auto bytes = test::read_bytes(entry.path());
      out.push_back(entry.path().filename().string() + ": " +
                    std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    }
  out.push_back(run({"sql", "SELECT * FROM keyframes ORDER BY track_id, key_index", "--db", db, "--format", "csv",
                     "--max-rows", "1000000"}));
  out.push_back(run({"sql", "SELECT * FROM key_splines ORDER BY track_id, key_index", "--db", db, "--format", "csv",
                     "--max-rows", "1000000"}));
  out.push_back(run({"sql", "SELECT t.bone_id, COUNT(*), SUM(k.x) FROM bone_tracks t JOIN keyframes k ON "
                     "k.track_id = t.id GROUP BY t.bone_id", "--db", db, "--format", "csv"}));
  return out;
}

}  // namespace

TEST_CASE("blob and rows layouts give the same answer to every query, report and diff", "[indexer][keys]") {
  test::TempDir dir;
  test::write_report_dump(dir / "v1", 1);
  test::write_report_dump(dir / "v2", 2);
  test::write_clean_sample(dir / "sample", 2, true);
  std::vector<std::vector<std::string>> results;
  for (const std::string storage : {"blob", "rows"}) {
    const auto database = dir / (storage + ".db");
    for (const std::string label : {"v1", "v2", "sample"})
      REQUIRE(run({"index", (dir / label).string(), "--db", database.string(), "--label", label, "--keyframes",
                   storage, "--quiet"}).starts_with("exit 0"));
    auto db = open_read_only(database);
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM dumps WHERE keyframe_storage = '" + storage + "'") == 3);
    CHECK(test::foreign_key_violations(db) == 0);  // the first index was a bulk load, the others not
    const auto keys_in_blobs = test::query_integer(db, "SELECT COUNT(*) FROM bone_tracks WHERE keys IS NOT NULL");
    CHECK((storage == "blob" ? keys_in_blobs > 0 : keys_in_blobs == 0));
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM keyframes") ==
          test::query_integer(db, "SELECT SUM(key_count) FROM bone_tracks"));
    CHECK(test::query_integer(db, "SELECT COUNT(*) FROM key_splines") > 0);  // KH2 curve keys
    results.push_back(answers(database, dir / ("docs-" + storage)));
  }
  REQUIRE(results[0].size() == results[1].size());
  for (std::size_t i = 0; i < results[0].size(); ++i) {
    INFO(i);
    CHECK(results[0][i] == results[1][i]);
  }
}
