#include <catch2/catch.hpp>
#include <sstream>

#include "core/number_text.h"
#include "output/result_table.h"

using namespace animdex;

namespace {
ResultTable sample() {
  return ResultTable{{"name", "count", "ratio"},
                     {{std::string("a,b \"q\""), std::int64_t{3}, 0.5},
                      {std::string("pipe|x"), std::int64_t{-12}, Cell{}}}};
}
std::string render(const ResultTable& table, OutputFormat format) {
  std::ostringstream out;
  write_table(out, table, format);
  return out.str();
}
}  // namespace

TEST_CASE("csv quotes fields per RFC 4180", "[output]") {
  CHECK(render(sample(), OutputFormat::csv) == "name,count,ratio\r\n\"a,b \"\"q\"\"\",3,0.5\r\npipe|x,-12,\r\n");
}

TEST_CASE("json keeps types and NULL", "[output]") {
  CHECK(render(sample(), OutputFormat::json) ==
        "[\n  {\n    \"name\": \"a,b \\\"q\\\"\",\n    \"count\": 3,\n    \"ratio\": 0.5\n  },\n"
        "  {\n    \"name\": \"pipe|x\",\n    \"count\": -12,\n    \"ratio\": null\n  }\n]\n");
}

TEST_CASE("markdown escapes pipes and right-aligns numbers", "[output]") {
  CHECK(render(sample(), OutputFormat::markdown) ==
        "| name | count | ratio |\n|---|---:|---:|\n| a,b \"q\" | 3 | 0.5 |\n| pipe\\|x | -12 |  |\n");
}

TEST_CASE("table aligns columns and counts rows", "[output]") {
  CHECK(render(sample(), OutputFormat::table) ==
        "name     count  ratio\n-------  -----  -----\na,b \"q\"      3    0.5\npipe|x     -12  \n(2 rows)\n");
}

TEST_CASE("output format names parse", "[output]") {
  CHECK(parse_output_format("csv") == OutputFormat::csv);
  CHECK(parse_output_format("markdown") == OutputFormat::markdown);
  CHECK_FALSE(parse_output_format("xml").has_value());
  CHECK(cell_text(Cell{0.1}) == "0.1");
}

TEST_CASE("tsv, jsonl and --no-header write what the sqlite3 shell and sqlite-utils do", "[output]") {
  std::ostringstream tsv;
  write_table(tsv, sample(), OutputFormat::tsv);
  CHECK(tsv.str() == "name\tcount\tratio\n\"a,b \"\"q\"\"\"\t3\t0.5\npipe|x\t-12\t\n");
  std::ostringstream bare;
  write_table(bare, sample(), OutputFormat::csv, /*header=*/false);
  CHECK(bare.str() == "\"a,b \"\"q\"\"\",3,0.5\r\npipe|x,-12,\r\n");
  std::ostringstream lines;
  write_table(lines, sample(), OutputFormat::jsonl);
  CHECK(lines.str() == "{\"name\":\"a,b \\\"q\\\"\",\"count\":3,\"ratio\":0.5}\n"
                       "{\"name\":\"pipe|x\",\"count\":-12,\"ratio\":null}\n");
}

TEST_CASE("every output prints a double so that it reads back as that double", "[output][numbers]") {
  // A float32 under the number rule (as SQL stores it, as pose shows it) is the double nearest its
  // decimal: 0.5061446, which nlohmann's own writer prints as 0.5061445999999999. A DS fixed-point
  // value is exact: -1033.616943359375, never cut to its float32's text.
  const ResultTable table{{"x"}, {{as_stored(static_cast<double>(0.5061446F))}, {2.0}, {-4233695.0 / 4096.0}}};
  for (const auto format : {OutputFormat::table, OutputFormat::csv, OutputFormat::tsv, OutputFormat::json,
                            OutputFormat::jsonl, OutputFormat::markdown, OutputFormat::html}) {
    std::ostringstream out;
    write_table(out, table, format);
    CHECK_THAT(out.str(), Catch::Contains("0.5061446") && !Catch::Contains("0.50614459") &&
                              Catch::Contains("-1033.616943359375"));
  }
}
