#include <catch2/catch.hpp>
#include <regex>
#include <set>

#include "db/query_catalog.h"

using namespace animdex;

TEST_CASE("the header comment declares description and parameters", "[queries]") {
  const auto query = parse_named_query("demo", "-- description: Things.\n-- param: bone  Bone ID\n"
                                                "-- param: dump = NULL  Only this dump\nSELECT :bone, :dump;\n");
  CHECK(query.name == "demo");
  CHECK(query.description == "Things.");
  REQUIRE(query.parameters.size() == 2);
  CHECK(query.parameters[0].name == "bone");
  CHECK(query.parameters[0].required());
  CHECK(query.parameters[0].description == "Bone ID");
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
  REQUIRE(bone_users->parameters.size() == 2);
  CHECK(bone_users->parameters[0].name == "bone");
  CHECK(bone_users->parameters[0].required());
}

TEST_CASE("bind_parameters fills defaults and rejects unknown or missing parameters", "[queries]") {
  const auto query = parse_named_query("q", "-- param: bone  Bone ID\n-- param: dump = NULL  Dump\nSELECT :bone, :dump;\n");
  CHECK(bind_parameters(query, {{"bone", "0x76"}}) == Bindings{{"bone", "0x76"}, {"dump", "NULL"}});
  CHECK(bind_parameters(query, {{"dump", "pal"}, {"bone", "1"}}) == Bindings{{"bone", "1"}, {"dump", "pal"}});
  CHECK_THROWS_WITH(bind_parameters(query, {}), Catch::Contains("needs -p bone VALUE (Bone ID)"));
  CHECK_THROWS_WITH(bind_parameters(query, {{"bone", "1"}, {"colour", "red"}}),
                    Catch::Contains("has no parameter 'colour'"));
}
