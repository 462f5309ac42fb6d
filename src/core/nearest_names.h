#pragma once
// "Did you mean": the names nearest to a word a user typed (a verb, a query, a parameter, a value),
// for the hints of usage errors.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace animdex {

// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`, ignoring ASCII case.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The names nearest to `word`, in their given order: those within the fewest edits (at most 2, and
// at most half the word's letters but 1: `xx` is no typo of `ls`, `sl` is); failing that, those
// that start with it, ignoring case (`head` -> `head1`, `head2`). At most `limit`.
std::vector<std::string> nearest_names(std::string_view word, const std::vector<std::string>& names,
                                       std::size_t limit = 3);

// "; nearest: a, b" for a message, or empty when nothing is near.
std::string nearest_hint(std::string_view word, const std::vector<std::string>& names);

}  // namespace animdex
