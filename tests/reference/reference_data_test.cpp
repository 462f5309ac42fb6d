#include <catch2/catch.hpp>

#include "reference/reference_data.h"

using namespace animdex;

TEST_CASE("embedded reference tables load with the seed documents' facts", "[reference]") {
  const auto& reference = ReferenceData::embedded();
  CHECK(reference.bone_name("gnt4", 0x76) == "hair left 3");
  CHECK(reference.bone_name("gnt4", 0x06) == "head");
  CHECK(reference.bone_name("gnt4", 0x18) == "RKunai");  // only a .jcv name is known
  CHECK(reference.bone_name("gnt4", 0xFFFF) == "root?");
  CHECK_FALSE(reference.bone_name("gnt4", 0x16).has_value());  // "?" in mot.md
  CHECK(reference.purpose("gnt4", 0x0140) == "Throw");
  CHECK(reference.purpose("gnt4", 0x0000) == "Idle");
  CHECK(reference.purpose("gnt4", 0x01B0) == "5X");
  CHECK_FALSE(reference.purpose("kh2", 0x0000).has_value());
  CHECK(reference.purposes().size() == 131);
  CHECK(reference.characters().size() == 42);
  const auto naruto = std::find_if(reference.characters().begin(), reference.characters().end(),
                                   [](const CharacterName& c) { return c.code == "nar"; });
  REQUIRE(naruto != reference.characters().end());
  CHECK(naruto->name == "Naruto");
  CHECK(naruto->internal_id == 8);
}

TEST_CASE("parse_integer reads decimal, hex and negatives only", "[reference]") {
  CHECK(parse_integer("118") == 118);
  CHECK(parse_integer("0x76") == 118);
  CHECK(parse_integer("0X76") == 118);
  CHECK(parse_integer("-1") == -1);
  CHECK_FALSE(parse_integer("").has_value());
  CHECK_FALSE(parse_integer("0x").has_value());
  CHECK_FALSE(parse_integer("12ab").has_value());
  CHECK_FALSE(parse_integer("1.5").has_value());
}

TEST_CASE("malformed reference TSVs are reported with file and line", "[reference]") {
  CHECK_THROWS_WITH(ReferenceData::parse("game\tbone\n", "game\tmotion_id\tpurpose\tsource\n",
                                         "game\tcode\tinternal_id\tname\tsource\n"),
                    Catch::Contains("bone_names.tsv:1") && Catch::Contains("bone_id"));
  CHECK_THROWS_WITH(ReferenceData::parse("game\tbone_id\tname\talt_name\tsource\ngnt4\tzz\tx\t\t\n",
                                         "game\tmotion_id\tpurpose\tsource\n",
                                         "game\tcode\tinternal_id\tname\tsource\n"),
                    Catch::Contains("'zz' is not an integer"));
}
