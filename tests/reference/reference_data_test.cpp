#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

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
  CHECK(std::count_if(reference.characters().begin(), reference.characters().end(),
                      [](const CharacterName& c) { return c.game == "gnt4"; }) == 42);
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

TEST_CASE("KH2 objects load as characters of game kh2 with OpenKh's display names", "[reference][kh2]") {
  const auto& reference = ReferenceData::embedded();
  CHECK(reference.character_name("kh2", "P_EX100") == "(P) Sora");
  CHECK(reference.character_name("kh2", "P_EX100_MAGF") == "(P) Sora (Wisdom)");
  CHECK(reference.character_name("kh2", "M_EX060") == "(M) Fat Bandit");
  CHECK(reference.character_name("kh2", "F_HB601") == "(F) Ansem Laboratory's Xemnas's CD for Chamber of Repose (HB)");
  CHECK(reference.character_name("kh2", "N_BB060_BTL") == "(N) Lumi\xC3\xA8re (BTL) (BB)");  // UTF-8 kept as is
  CHECK_FALSE(reference.character_name("gnt4", "P_EX100").has_value());
  CHECK_FALSE(reference.character_name("kh2", "p_ex100").has_value());  // codes are matched exactly
  CHECK(reference.character_name("gnt4", "nar") == "Naruto");

  std::size_t kh2_rows = 0;
  std::set<std::pair<std::string, std::string>> keys;
  for (const auto& character : reference.characters()) {
    keys.emplace(character.game, character.code);
    if (character.game != "kh2") continue;
    ++kh2_rows;
    CHECK(character.internal_id.has_value());
    CHECK(character.source == "OpenKH/OpenKh docs/kh2/dictionary/obj.md, commit 304ddf7b");
  }
  CHECK(kh2_rows == 1898);
  CHECK(keys.size() == reference.characters().size());  // (game, code) unique: ref_characters' primary key
  const auto sora = std::find_if(reference.characters().begin(), reference.characters().end(),
                                 [](const CharacterName& c) { return c.code == "P_EX100"; });
  REQUIRE(sora != reference.characters().end());
  CHECK(sora->internal_id == 84);  // its 00objentry.bin id
}

TEST_CASE("a character listed twice across the character tables is an error naming both lines", "[reference]") {
  const char* bones = "game\tbone_id\tname\talt_name\tsource\n";
  const char* purposes = "game\tmotion_id\tpurpose\tsource\n";
  const char* characters = "game\tcode\tinternal_id\tname\tsource\ngnt4\tnar\t8\tNaruto\t\n";
  CHECK_THROWS_WITH(
      ReferenceData::parse(bones, purposes, characters, {},
                           {{"kh2_objects.tsv", "# comment\ngame\tcode\tinternal_id\tname\tsource\n"
                                                "kh2\tP_EX100\t84\t(P) Sora\t\ngnt4\tnar\t8\tNaruto\t\n"}}),
      Catch::Equals("kh2_objects.tsv:4: character (gnt4, nar) is listed twice (first at characters.tsv:2)"));
  CHECK_THROWS_WITH(ReferenceData::parse(bones, purposes, characters, {},
                                         {{"kh2_objects.tsv", "game\tcode\tinternal_id\tname\tsource\n"
                                                              "kh2\tP_EX100\t84\t(P) Sora\t\nkh2\tP_EX100\t85\tx\t\n"}}),
                    Catch::Equals("kh2_objects.tsv:3: character (kh2, P_EX100) is listed twice (first at "
                                  "kh2_objects.tsv:2)"));
  CHECK_THROWS_WITH(ReferenceData::parse(bones, purposes, characters, {},
                                         {{"kh2_objects.tsv", "game\tcode\tinternal_id\tname\tsource\nkh2\tP_EX100\t84\t\t\n"}}),
                    Catch::Equals("kh2_objects.tsv:2: a character needs a game, a code and a name"));
  // The same code in two games is two characters.
  const auto both = ReferenceData::parse(bones, purposes, characters, {},
                                         {{"kh2_objects.tsv", "game\tcode\tinternal_id\tname\tsource\nkh2\tnar\t1\tX\t\n"}});
  CHECK(both.character_name("gnt4", "nar") == "Naruto");
  CHECK(both.character_name("kh2", "nar") == "X");
}
