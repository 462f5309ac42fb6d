#pragma once
// The names KH2.IDX entries hash (containers.md section 4): OpenKh's kh2idx.txt, copied to
// kh2_idx_names.txt beside this file and compiled into the binary (NOTES.md gives its source and
// licence). KH2.IDX stores only (Hash32, Hash16); this table turns a pair back into its path.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace animdex::kh2_idx {

// The path whose (kh2_hash32, kh2_hash16) is this pair, if the list has it (where two lines share
// the pair, the first). A binary search of a table made at build time (tools/kh2_name_table.cpp).
std::optional<std::string_view> kh2_name_for(std::uint32_t hash32, std::uint16_t hash16);

// How many names the table holds (111,680 for the shipped list; empty lines are not names).
std::size_t kh2_known_name_count();

// The embedded list as stored, one path a line.
std::string_view kh2_name_list();

}  // namespace animdex::kh2_idx
