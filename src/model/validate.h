#pragma once
// The common model's rules, checked: every parser's output must pass (tests and fuzzers check it,
// and the indexer refuses a file whose model breaks one, so no rule is left to the database).
#include <optional>
#include <string>

#include "model/animation.h"

namespace animdex::model {

// The first broken rule, described with where it is (animation, track, key), or nullopt.
// Rules (each written beside its field in animation.h and format_rows.h): key times, values, spline
// parameters and header numbers are finite; keys are in non-decreasing time order; bone (node) ids
// are not negative; splines are empty or one per key; channels are printable ASCII, and a bone's
// T/R/S letters are in that order without repeats; a format row names its table and columns, and the animations it
// describes or points at exist.
std::optional<std::string> validate(const AnimationFile& file);

}  // namespace animdex::model
