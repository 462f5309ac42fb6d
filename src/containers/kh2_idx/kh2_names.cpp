#include "containers/kh2_idx/kh2_names.h"

#include <algorithm>
#include <bit>
#include <span>
#include <tuple>

#ifndef ANIMDEX_SOURCE_DIR
#error "ANIMDEX_SOURCE_DIR must name the repository root (the name list is included from it)"
#endif
#ifndef ANIMDEX_BINARY_DIR
#error "ANIMDEX_BINARY_DIR must name the build folder (the name table is made there)"
#endif

// The list goes into .rodata as is: 3 MB of text would be a slow string literal to compile, and a
// file read at run time would break the readers' "no I/O" rule. Its table, made from it at build
// time (tools/kh2_name_table.cpp), goes beside it.
asm(".pushsection .rodata\n"
    ".balign 16\n"
    ".hidden animdex_kh2_idx_names_begin\n"
    ".global animdex_kh2_idx_names_begin\n"
    "animdex_kh2_idx_names_begin:\n"
    ".incbin \"" ANIMDEX_SOURCE_DIR "/src/containers/kh2_idx/kh2_idx_names.txt\"\n"
    ".hidden animdex_kh2_idx_names_end\n"
    ".global animdex_kh2_idx_names_end\n"
    "animdex_kh2_idx_names_end:\n"
    ".byte 0\n"
    ".balign 16\n"
    ".hidden animdex_kh2_idx_table_begin\n"
    ".global animdex_kh2_idx_table_begin\n"
    "animdex_kh2_idx_table_begin:\n"
    ".incbin \"" ANIMDEX_BINARY_DIR "/generated/kh2_idx_names.table\"\n"
    ".hidden animdex_kh2_idx_table_end\n"
    ".global animdex_kh2_idx_table_end\n"
    "animdex_kh2_idx_table_end:\n"
    ".popsection\n");

namespace animdex::kh2_idx {

// 12 bytes a name, as the build-time tool writes them (little-endian, sorted by the hash pair, then
// by offset): the pair, the name's length and where it starts in the embedded list.
struct KnownName {
  std::uint32_t hash32;
  std::uint16_t hash16;
  std::uint16_t length;
  std::uint32_t offset;
};
static_assert(sizeof(KnownName) == 12 && alignof(KnownName) == 4, "the tool's record, without padding");
static_assert(std::endian::native == std::endian::little, "the table is written little-endian");

}  // namespace animdex::kh2_idx

extern "C" const char animdex_kh2_idx_names_begin[];
extern "C" const char animdex_kh2_idx_names_end[];
extern "C" const animdex::kh2_idx::KnownName animdex_kh2_idx_table_begin[];
extern "C" const animdex::kh2_idx::KnownName animdex_kh2_idx_table_end[];

namespace animdex::kh2_idx {

namespace {

bool hash_less(const KnownName& a, const KnownName& b) {
  return std::tie(a.hash32, a.hash16) < std::tie(b.hash32, b.hash16);
}

std::span<const KnownName> known_names() { return {animdex_kh2_idx_table_begin, animdex_kh2_idx_table_end}; }

}  // namespace

std::string_view kh2_name_list() {
  return {animdex_kh2_idx_names_begin,
          static_cast<std::size_t>(animdex_kh2_idx_names_end - animdex_kh2_idx_names_begin)};
}

std::optional<std::string_view> kh2_name_for(std::uint32_t hash32, std::uint16_t hash16) {
  const auto table = known_names();
  const KnownName wanted{hash32, hash16, 0, 0};
  const auto found = std::lower_bound(table.begin(), table.end(), wanted, hash_less);
  if (found == table.end() || found->hash32 != hash32 || found->hash16 != hash16) return std::nullopt;
  return kh2_name_list().substr(found->offset, found->length);
}

std::size_t kh2_known_name_count() { return known_names().size(); }

}  // namespace animdex::kh2_idx
