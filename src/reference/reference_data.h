#pragma once
// Labels for IDs (bone names, animation purposes, character names), read from the
// TSV files in schema/reference/ that the build embeds. Data, not code: users fix a
// name by editing the TSV and rebuilding.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace animdex {

struct BoneName {
  std::string game;
  std::int64_t bone_id = 0;
  std::string name;
  std::string alt_name;
  std::string source;
};

struct AnimationPurpose {
  std::string game;
  std::int64_t motion_id = 0;
  std::string purpose;
  std::string source;
};

struct CharacterName {
  std::string game;
  std::string code;
  std::optional<std::int64_t> internal_id;
  std::string name;
  std::string source;
};

// A game's motion ID name in one numbering (KH2: 'code', the default, or 'doc').
struct MotionName {
  std::string game;
  std::string numbering;
  std::int64_t motion_id = 0;
  std::string name;
  std::string source;
};

// A TSV's text and the file name its errors name.
struct NamedTsv {
  std::string_view name;
  std::string_view text;
};

class ReferenceData {
 public:
  // Parses the embedded schema/reference/*.tsv files; throws std::runtime_error naming the
  // file and line when one is malformed (a build-time data bug, caught by the tests).
  // Characters come from characters.tsv and any further tables with the same columns
  // (kh2_objects.tsv: KH2's objects); a (game, code) listed twice across them is an error.
  static const ReferenceData& embedded();
  static ReferenceData parse(std::string_view bones_tsv, std::string_view purposes_tsv,
                             std::string_view characters_tsv, std::string_view motion_names_tsv = {},
                             const std::vector<NamedTsv>& more_character_tsvs = {});

  const std::vector<BoneName>& bones() const { return bones_; }
  const std::vector<AnimationPurpose>& purposes() const { return purposes_; }
  const std::vector<CharacterName>& characters() const { return characters_; }
  const std::vector<MotionName>& motion_names() const { return motion_names_; }

  // The display name of a bone: its name, else its alt_name; nullopt when unknown.
  std::optional<std::string> bone_name(std::string_view game, std::int64_t bone_id) const;
  std::optional<std::string> purpose(std::string_view game, std::int64_t motion_id) const;
  std::optional<std::string> motion_name(std::string_view game, std::string_view numbering,
                                         std::int64_t motion_id) const;
  // A character's (KH2: an object's) display name, e.g. ("kh2", "P_EX100") -> "(P) Sora".
  std::optional<std::string> character_name(std::string_view game, std::string_view code) const;
  // The code as the table spells it for a code given in any case (`p_ex100` -> `P_EX100`), when
  // exactly one of the game's codes matches; a scan, for the few names a path offers.
  std::optional<std::string> character_code_ignoring_case(std::string_view game, std::string_view code) const;

 private:
  std::vector<BoneName> bones_;
  std::vector<AnimationPurpose> purposes_;
  std::vector<CharacterName> characters_;
  std::vector<MotionName> motion_names_;
  std::map<std::pair<std::string, std::int64_t>, std::size_t, std::less<>> bone_index_;
  std::map<std::pair<std::string, std::int64_t>, std::size_t, std::less<>> purpose_index_;
  std::map<std::tuple<std::string, std::string, std::int64_t>, std::size_t, std::less<>> motion_name_index_;
  std::map<std::pair<std::string, std::string>, std::size_t, std::less<>> character_index_;
};

// Parses "118", "0x76" or "-1"; nullopt if the text is not an integer.
std::optional<std::int64_t> parse_integer(std::string_view text);

}  // namespace animdex
