#pragma once
// One name, one member: the paths a container's members are known by, made by one function that
// the indexer (files.path) and every verb's lookup (`info`, `pose`, `ls`, `extract`) both go
// through, so a stored path always opens the member it was stored for.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "containers/container.h"

namespace animdex {

// A name byte that would end or corrupt the path where it is shown (a NUL cuts a C string, and so
// the name, everywhere it is printed or bound) written as `\xHH`.
std::string escape_member_name(std::string_view name);

// Makes `members`' paths unique and prefix-free, in linear time:
//  - the first member holding a path keeps it; a later one gets `#2`, `#3`, ... (the first suffix
//    not already a path or folder of this listing, so a member literally named `dup#2` keeps it);
//  - a member whose path is also the folder of other members' paths (`a` beside `a/b`) is renamed
//    the same way, since `a/b` inside a container `a` would otherwise collide with the member `a/b`.
// Together, every path of a container and of the containers nested in its members is unique, and
// the longest member path that begins a nested path is the only one that can.
// Each rename is a warning (`container`: entry I repeats the path P; listed as Q), the first
// `max_warnings`, then one line counting the rest. Suffix counters are kept per path, so 40,000
// repeats of one name cost 40,000 steps, not 40,000^2 / 2.
void make_member_paths_unique(std::vector<Member>& members, std::vector<std::string>& warnings,
                              std::string_view container, std::size_t max_warnings = 16);

// At most `max` warnings kept of `warnings`, then one line "... and K more warnings": a hostile
// table must not become millions of rows (issue 35).
void cap_warnings(std::vector<std::string>& warnings, std::size_t max);

}  // namespace animdex
