#include "containers/kh2_idx/kh2_names.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "containers/kh2_idx/kh2_hash.h"

#ifndef ANIMDEX_SOURCE_DIR
#error "ANIMDEX_SOURCE_DIR must name the repository root (the name list is included from it)"
#endif

// The list goes into .rodata as is: 3 MB of text would be a slow string literal to compile, and a
// file read at run time would break the readers' "no I/O" rule.
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
    ".popsection\n");

extern "C" const char animdex_kh2_idx_names_begin[];
extern "C" const char animdex_kh2_idx_names_end[];

namespace animdex::kh2_idx {

namespace {

// 12 bytes a name instead of a map node and a std::string: 111,680 of them.
struct KnownName {
  std::uint32_t hash32;
  std::uint16_t hash16;
  std::uint16_t length;
  std::uint32_t offset;  // in the embedded list
};

bool hash_less(const KnownName& a, const KnownName& b) {
  return std::tie(a.hash32, a.hash16) < std::tie(b.hash32, b.hash16);
}

std::vector<KnownName> build_table(std::string_view list) {
  std::vector<KnownName> table;
  table.reserve(static_cast<std::size_t>(std::count(list.begin(), list.end(), '\n')) + 1);
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t end = list.find('\n', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view line = list.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.size() <= 0xFFFF)
      table.push_back({kh2_hash32(line), kh2_hash16(line), static_cast<std::uint16_t>(line.size()),
                       static_cast<std::uint32_t>(start)});
    start = end + 1;
  }
  std::sort(table.begin(), table.end(), hash_less);
  return table;
}

const std::vector<KnownName>& known_names() {
  static const std::vector<KnownName> table = build_table(kh2_name_list());
  return table;
}

}  // namespace

std::string_view kh2_name_list() {
  return {animdex_kh2_idx_names_begin,
          static_cast<std::size_t>(animdex_kh2_idx_names_end - animdex_kh2_idx_names_begin)};
}

std::optional<std::string_view> kh2_name_for(std::uint32_t hash32, std::uint16_t hash16) {
  const auto& table = known_names();
  const KnownName wanted{hash32, hash16, 0, 0};
  const auto found = std::lower_bound(table.begin(), table.end(), wanted, hash_less);
  if (found == table.end() || found->hash32 != hash32 || found->hash16 != hash16) return std::nullopt;
  return kh2_name_list().substr(found->offset, found->length);
}

std::size_t kh2_known_name_count() { return known_names().size(); }

}  // namespace animdex::kh2_idx
