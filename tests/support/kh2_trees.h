#pragma once
// KH2 trees made with the project's writers, shared by the index tests and the SQL fixtures
// (tests/sql) so that a tree is written in one place.
#include <cstdint>
#include <cstddef>
#include <filesystem>
#include <vector>

namespace animdex::test {

// A motion set (BAR) of one interpolated motion `A000` of `bones` bones, with a curve on bone
// `curve_bone` (kh2::build_interpolated_motion).
std::vector<std::byte> kh2_set_of(std::int16_t bones, std::int16_t curve_bone = 0);

// KH2 motions and models for each step of the skeleton link (kh2_after_index.sql), every motion of
// one bone count: own name in the folder (obj/P_EX100), base code in the folder (obj/M_EX350_MEMO),
// base code in the dump with two identical models (gameplay/W_EX010_R), own name in the dump with
// two different ones (gameplay/F_TT010), and a model of its name whose bone count differs
// (obj/B_EX200). 12 files, all ok.
void write_kh2_link_tree(const std::filesystem::path& root);

}  // namespace animdex::test
