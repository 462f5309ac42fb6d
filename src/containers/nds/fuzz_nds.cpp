// Fuzzes the .nds reader (header, FAT, FNT walker): any input lists or fails cleanly with an offset
// inside it and a non-empty `expected`; what detect claims never fails on a header rule; every
// member lies inside the input; a few bytes of each member read; a listed file system rebuilt by
// build_nds lists the same paths and bytes when its paths are ones the builder can store.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "containers/nds/nds_container.h"
#include "containers/nds/nds_writer.h"

using namespace animdex;
using namespace animdex::nds;

namespace {

constexpr std::uint64_t kMaxRebuildBytes = 1 << 20;

// True when every member lies inside the ROM; one cut off by a short ROM is listed only with a
// warning saying so (its own row fails).
bool check_members(const ByteSource& source, const MemberList& list) {
  bool all_inside = true;
  for (const auto& member : list.members) {
    if (!source.contains(member.offset, member.stored_size)) {
      if (list.warnings.empty()) __builtin_trap();
      all_inside = false;
      continue;
    }
    if (member.size != member.stored_size || member.compression != nullptr || !member.may_be_compressed) __builtin_trap();
    if (member.path.empty() || member.stored_name != member.path) __builtin_trap();
    std::byte head[4];
    source.read(member.offset, std::span(head, std::min<std::size_t>(4, member.stored_size)));
  }
  return all_inside;
}

void rebuild(const ByteSource& source, const MemberList& list) {
  std::uint64_t total = 0;
  for (const auto& member : list.members) total += member.stored_size;
  if (total > kMaxRebuildBytes) return;
  std::vector<NdsFile> files;
  for (const auto& member : list.members) files.push_back({member.path, source.read_vector(member.offset, member.stored_size)});
  std::vector<std::byte> rom;
  try {
    rom = build_nds(files);
  } catch (const std::invalid_argument&) {
    return;  // e.g. a file and a directory of one name, which the FNT allows and a tree cannot hold
  }
  const MemorySource rebuilt{std::span<const std::byte>(rom)};
  const auto relisted = list_nds({rebuilt, rebuilt, "rebuilt"}, ContainerLimits{});
  if (!relisted.ok() || relisted.value().members.size() != files.size()) __builtin_trap();
  for (const auto& member : relisted.value().members) {
    const auto found = std::find_if(files.begin(), files.end(), [&](const NdsFile& f) { return f.path == member.path; });
    if (found == files.end() || rebuilt.read_vector(member.offset, member.stored_size) != found->bytes) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const bool claimed = detect_nds(bytes, size);
  const MemorySource source{bytes};
  const auto listed = list_nds({source, source, "fuzz.nds"}, ContainerLimits{});
  if (!listed.ok()) {
    const auto& error = listed.error();
    if (error.expected.empty() || error.offset > size) __builtin_trap();
    // Header rules fail below 0x200; the FNT and FAT (and so their errors) start at 0x200 or later,
    // and a fuzz input is far below the member and table caps.
    if (claimed && error.offset < kNdsHeaderUsed) __builtin_trap();
    return 0;
  }
  if (!claimed) __builtin_trap();  // list accepts only what detect claims
  if (check_members(source, listed.value())) rebuild(source, listed.value());
  return 0;
}
