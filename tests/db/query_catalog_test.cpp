#include <catch2/catch.hpp>
#include <regex>
#include <set>

#include "db/query_catalog.h"

using namespace animdex;

TEST_CASE("the header comment declares description and parameters", "[queries]") {
  const auto query = parse_named_query("demo", "-- description: Things.\n-- param: bone int  Bone ID\n"
                                                "-- param: dump text = NULL  Only this dump\nSELECT :bone, :dump;\n");
  CHECK(query.name == "demo");
  CHECK(query.description == "Things.");
  REQUIRE(query.parameters.size() == 2);
  CHECK(query.parameters[0].name == "bone");
  CHECK(query.parameters[0].required());
  CHECK(query.parameters[0].type == ParameterType::integer);
  CHECK(query.parameters[0].description == "Bone ID");
  CHECK(query.parameters[1].type == ParameterType::text);
  CHECK(query.parameters[1].default_value == "NULL");
  CHECK(query.parameters[1].description == "Only this dump");
}

TEST_CASE("every embedded named query is documented and declares exactly the parameters it uses", "[queries]") {
  const auto& queries = named_queries();
  std::set<std::string> names;
  for (const auto& query : queries) names.insert(query.name);
  for (const char* required : {"bone-users", "animations", "purposes", "characters", "errors"})
    CHECK(names.count(required) == 1);
  const std::regex placeholder(":([a-z_]+)");
  for (const auto& query : queries) {
    INFO(query.name);
    CHECK_FALSE(query.description.empty());
    std::set<std::string> used;
    for (auto it = std::sregex_iterator(query.sql.begin(), query.sql.end(), placeholder); it != std::sregex_iterator(); ++it) {
      const auto line_start = query.sql.rfind('\n', static_cast<std::size_t>(it->position())) + 1;
      if (query.sql.compare(line_start, 2, "--") == 0) continue;  // header comment
      used.insert((*it)[1]);
    }
    std::set<std::string> declared;
    for (const auto& parameter : query.parameters) declared.insert(parameter.name);
    CHECK(used == declared);
  }
  const auto* bone_users = find_named_query("bone-users");
  REQUIRE(bone_users);
  REQUIRE(bone_users->parameters.size() == 3);
  CHECK(bone_users->parameters[0].name == "bone");
  CHECK(bone_users->parameters[0].required());
  CHECK(bone_users->parameters[1].name == "game");  // bone numbers belong to a game's skeletons
  CHECK_FALSE(bone_users->parameters[1].required());
}

TEST_CASE("a parameter without a type is a mistake in the query file", "[queries]") {
  CHECK_THROWS_WITH(parse_named_query("q", "-- param: bone  Bone ID\nSELECT :bone;\n"),
                    Catch::Contains("parameter 'bone' needs a type"));
}

TEST_CASE("parameters keep their declared type", "[queries]") {
  const auto query = parse_named_query(
      "q", "-- param: bone int  Bone\n-- param: dump text = NULL  Dump\n-- param: scale real = 1.5  Scale\nSELECT 1;\n");
  // "007" is a label, not the number 7; "0x76" is bone 118.
  CHECK(bind_parameters(query, {{"bone", "0x76"}, {"dump", "007"}}) ==
        Parameters{{"bone", std::int64_t{118}}, {"dump", std::string("007")}, {"scale", 1.5}});
  CHECK(bind_parameters(query, {{"bone", "12"}, {"dump", "0008"}, {"scale", "2"}}) ==
        Parameters{{"bone", std::int64_t{12}}, {"dump", std::string("0008")}, {"scale", 2.0}});
  CHECK_THROWS_WITH(bind_parameters(query, {{"bone", "head"}}),
                    Catch::Contains("-p bone expects an integer (decimal or 0x-hex), got 'head'"));
  CHECK_THROWS_WITH(bind_parameters(query, {{"bone", "1"}, {"scale", "nan"}}),
                    Catch::Contains("-p scale expects a number, got 'nan'"));
}

TEST_CASE("bind_parameters fills defaults and rejects unknown or missing parameters", "[queries]") {
  const auto query = parse_named_query("q", "-- param: bone int  Bone ID\n-- param: dump text = NULL  Dump\nSELECT :bone, :dump;\n");
  CHECK(bind_parameters(query, {{"bone", "0x76"}}) == Parameters{{"bone", std::int64_t{0x76}}, {"dump", std::monostate{}}});
  CHECK(bind_parameters(query, {{"dump", "pal"}, {"bone", "1"}}) ==
        Parameters{{"bone", std::int64_t{1}}, {"dump", std::string("pal")}});
  CHECK_THROWS_WITH(bind_parameters(query, {}), Catch::Contains("needs -p bone VALUE (Bone ID)"));
  CHECK_THROWS_WITH(bind_parameters(query, {{"bone", "1"}, {"colour", "red"}}),
                    Catch::Contains("has no parameter 'colour' (it takes: bone, dump)"));
}
