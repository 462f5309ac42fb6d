#pragma once
// The common model's rules, checked: every parser's output must pass (tests and fuzzers check it,
// and the indexer refuses a file whose model breaks one, so no rule is left to the database).
#include <optional>
#include <string>

#include "model/animation.h"

namespace animdex::model {

// The first broken rule, described with where it is (animation, track, key), or nullopt.
// Rules: key times, values and header numbers are finite; bone (node) ids are not negative;
// splines are empty or one per key; an archive entry's animation index points at an animation.
// (Key order is not a rule yet: GNT and KH2 parsers do not check it, and a rule that a parser does
// not enforce would turn a file the game may accept into an error.) (Channel names differ per format --
// GNT "TRS" letters, KH2 "Tx".."Sz", LightWave "x".."B" -- so they are not checked here.)
std::optional<std::string> validate(const AnimationFile& file);

}  // namespace animdex::model
