// Fuzzes the NARC reader (and through it the shared FNT walker): any input lists or fails cleanly
// with an offset inside it and a non-empty `expected`; every member lies inside the input; a few
// bytes of each member read; a listed archive rebuilt by build_narc lists the same member bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "containers/member_paths.h"
#include "containers/narc/narc_container.h"
#include "containers/narc/narc_writer.h"

using namespace animdex;
using namespace animdex::narc;

namespace {

constexpr std::uint64_t kMaxRebuildBytes = 1 << 20;

std::vector<std::byte> member_bytes(const ByteSource& source, const Member& member) {
  return source.read_vector(member.offset, member.stored_size);
}

// Paths made unique as every listing makes them (containers/member_paths.h): unique, and none the
// folder of another, whatever names a hostile FNT repeats.
void check_unique_paths(MemberList list) {
  std::vector<std::string> warnings;
  make_member_paths_unique(list.members, warnings, "fuzz.narc");
  if (warnings.size() > 17) __builtin_trap();
  std::set<std::string> paths;
  for (const auto& member : list.members)
    if (!paths.insert(member.path).second) __builtin_trap();
  for (const auto& path : paths)
    for (auto slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1))
      if (paths.count(path.substr(0, slash))) __builtin_trap();
}

void check_members(const ByteSource& source, const MemberList& list) {
  // Warnings are capped per kind (FNT faults, ...): a hostile table cannot make millions.
  if (list.warnings.size() > 40) __builtin_trap();
  check_unique_paths(list);
  for (const auto& member : list.members) {
    if (member.error) {  // a broken entry is its own error, inside the input
      if (member.error->expected.empty() || member.error->offset > source.size()) __builtin_trap();
      continue;
    }
    if (!source.contains(member.offset, member.stored_size)) __builtin_trap();
    if (member.size != member.stored_size || member.compression != nullptr || !member.may_be_compressed) __builtin_trap();
    if (member.path.empty() || member.stored_name != member.path) __builtin_trap();
    std::byte head[4];
    source.read(member.offset, std::span(head, std::min<std::size_t>(4, member.stored_size)));
  }
}

// Rebuilds the archive from the listed members (nameless, so every list rebuilds) when that is
// cheap: members may overlap, so their total can be far more than the input.
void rebuild(const ByteSource& source, const MemberList& list) {
  std::uint64_t total = 0;
  for (const auto& member : list.members) total += member.error ? 0 : member.stored_size;
  if (total > kMaxRebuildBytes) return;
  std::vector<NarcMember> members;
  for (const auto& member : list.members)
    if (!member.error) members.push_back({member.path, member_bytes(source, member)});
  const auto rebuilt = build_narc(members, false);
  const MemorySource rebuilt_source{std::span<const std::byte>(rebuilt)};
  const auto relisted = list_narc({rebuilt_source, rebuilt_source, "rebuilt"}, ContainerLimits{});
  if (!relisted.ok() || relisted.value().members.size() != members.size()) __builtin_trap();
  for (std::size_t i = 0; i < members.size(); ++i)
    if (member_bytes(rebuilt_source, relisted.value().members[i]) != members[i].bytes) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  (void)detect_narc(bytes, size);
  const MemorySource source{bytes};
  const auto listed = list_narc({source, source, "fuzz.narc"}, ContainerLimits{});
  if (!listed.ok()) {
    if (listed.error().expected.empty() || listed.error().offset > size) __builtin_trap();
    return 0;
  }
  check_members(source, listed.value());
  rebuild(source, listed.value());
  return 0;
}
