// Which character a file belongs to, from its path alone (and KH2's object table).
#include <catch2/catch.hpp>

#include "indexer/rows.h"
#include "reference/reference_data.h"

using animdex::character_from_path;

TEST_CASE("GNT characters are the folder after chr/, the innermost one", "[indexer][character]") {
  CHECK(character_from_path("files/chr/nar/0000.mot") == "nar");
  CHECK(character_from_path("fpack/chr/nar1000.fpk/chr/nar/0000.mot") == "nar");
  CHECK_FALSE(character_from_path("files/0000.mot").has_value());
}

TEST_CASE("a KH2 motion set names its object under obj/, and elsewhere when the object table knows it",
          "[indexer][character]") {
  const auto& reference = animdex::ReferenceData::embedded();
  CHECK(character_from_path("kh2/obj/P_SAMPLE.mset") == "P_SAMPLE");
  CHECK(character_from_path("kh2/obj/P_EX100.MSET") == "P_EX100");
  // A modder's folder of sets: P_EX100 is Sora in kh2-objects.tsv; an unknown name is no character.
  CHECK(character_from_path("Zurphing__AirSlideBL/P_EX100.mset", &reference) == "P_EX100");
  CHECK(reference.character_name("kh2", "P_EX100") == "(P) Sora");
  CHECK_FALSE(character_from_path("Zurphing__AirSlideBL/P_EX100.mset").has_value());
  CHECK_FALSE(character_from_path("mods/MY_SET.mset", &reference).has_value());
  CHECK(character_from_path("mods/p_ex100.mset", &reference) == "P_EX100");  // as the table spells it
  CHECK(reference.character_code_ignoring_case("kh2", "p_ex100_magf") == "P_EX100_MAGF");
  CHECK_FALSE(character_from_path("mods/P_EX100.anb", &reference).has_value());
  // A GNT character folder wins over a set's name.
  CHECK(character_from_path("chr/nar/P_EX100.mset", &reference) == "nar");
}
