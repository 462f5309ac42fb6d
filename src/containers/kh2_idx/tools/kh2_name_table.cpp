// Build-time tool: KH2.IDX's name table for kh2_names.cpp, which embeds what this writes. Listing a
// KH2.IDX turns each entry's hash pair back into its path; hashing the 111,680 names of the list
// and sorting them when a process first listed a KH2.IDX took 0.03 s of its serial scan.
//
//   animdex_kh2_name_table NAME_LIST OUTPUT
//
// NAME_LIST holds one path a line (CR LF or LF). OUTPUT gets, for each non-empty line of at most
// 65,535 bytes, 12 bytes: kh2_hash32 (u32), kh2_hash16 (u16), the line's length (u16) and its offset
// in NAME_LIST (u32), little-endian, sorted by (hash32, hash16, offset): a pair that two lines share
// finds the first.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "containers/kh2_idx/kh2_hash.h"

namespace {

struct Entry {
  std::uint32_t hash32;
  std::uint16_t hash16;
  std::uint16_t length;
  std::uint32_t offset;
};

std::vector<Entry> entries_of(std::string_view list) {
  std::vector<Entry> entries;
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t end = list.find('\n', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view line = list.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.size() <= 0xFFFF)
      entries.push_back({animdex::kh2_idx::kh2_hash32(line), animdex::kh2_idx::kh2_hash16(line),
                         static_cast<std::uint16_t>(line.size()), static_cast<std::uint32_t>(start)});
    start = end + 1;
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.hash32, a.hash16, a.offset) < std::tie(b.hash32, b.hash16, b.offset);
  });
  return entries;
}

void put_le(std::string& out, std::uint32_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: animdex_kh2_name_table NAME_LIST OUTPUT\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in.is_open()) {
    std::fprintf(stderr, "animdex_kh2_name_table: cannot open %s\n", argv[1]);
    return 1;
  }
  const std::string list{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) {
    std::fprintf(stderr, "animdex_kh2_name_table: cannot read %s\n", argv[1]);
    return 1;
  }
  if (list.size() > UINT32_MAX) {
    std::fprintf(stderr, "animdex_kh2_name_table: %s is over 4 GiB: offsets would not fit\n", argv[1]);
    return 1;
  }
  std::string table;
  for (const Entry& entry : entries_of(list)) {
    put_le(table, entry.hash32, 4);
    put_le(table, entry.hash16, 2);
    put_le(table, entry.length, 2);
    put_le(table, entry.offset, 4);
  }
  // Written beside, then renamed: a build stopped halfway leaves no short table to embed.
  const std::filesystem::path output = argv[2], partial = output.string() + ".partial";
  std::error_code error;
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out.write(table.data(), static_cast<std::streamsize>(table.size()));
    out.close();
    if (!out) {
      std::fprintf(stderr, "animdex_kh2_name_table: cannot write %s\n", partial.c_str());
      std::filesystem::remove(partial, error);
      return 1;
    }
  }
  std::filesystem::rename(partial, output, error);
  if (error) {
    std::fprintf(stderr, "animdex_kh2_name_table: cannot rename %s to %s: %s\n", partial.c_str(), output.c_str(),
                 error.message().c_str());
    std::filesystem::remove(partial, error);
    return 1;
  }
  return 0;
}
