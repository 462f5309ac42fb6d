// Fuzzes the GameCube listing: any input lists or fails cleanly with an offset inside it; every
// listed file lies inside the input, and its first (at most) 64 bytes read; a small listing
// rebuilt with build_gcm lists again to the same paths and bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "containers/byte_source.h"
#include "containers/gcm/gcm_container.h"
#include "containers/gcm/gcm_writer.h"

using namespace animdex;

namespace {

using Listed = std::vector<std::pair<std::string, std::vector<std::byte>>>;

Listed read_all(const ByteSource& source, const MemberList& listing) {
  Listed files;
  for (const Member& member : listing.members) files.emplace_back(member.path, source.read_vector(member.offset, member.size));
  std::sort(files.begin(), files.end());
  return files;
}

// What list_gcm gives, build_gcm must be able to write back (unless a name is both a file and a
// directory, which the writer refuses) and list_gcm must read again unchanged.
void round_trip(const ByteSource& source, const MemberList& listing) {
  std::uint64_t total = 0;
  for (const Member& member : listing.members) total += member.size;
  if (listing.members.size() > 64 || total > (1u << 20)) return;
  const Listed original = read_all(source, listing);
  std::vector<gcm::GcmFile> files;
  for (const auto& [path, bytes] : original) files.push_back({path, bytes});
  std::vector<std::byte> rebuilt;
  try {
    rebuilt = gcm::build_gcm(files);
  } catch (const std::invalid_argument&) {
    return;
  }
  const MemorySource rebuilt_source{std::span<const std::byte>(rebuilt)};
  const auto relisted = gcm::list_gcm(ContainerInput{rebuilt_source, rebuilt_source, "rebuilt.iso"}, ContainerLimits{});
  if (!relisted.ok() || !relisted.value().warnings.empty()) __builtin_trap();
  if (read_all(rebuilt_source, relisted.value()) != original) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const MemorySource source(bytes);
  const auto listed = gcm::list_gcm(ContainerInput{source, source, "fuzz.iso"}, ContainerLimits{});
  if (!listed.ok()) {
    if (listed.error().expected.empty() || listed.error().offset > size) __builtin_trap();
    return 0;
  }
  // Warnings are capped per kind (repeated paths, empty files past the image, files cut short).
  if (listed.value().warnings.size() > 3 * 17) __builtin_trap();
  std::byte head[64];
  bool all_inside = true;
  for (const Member& member : listed.value().members) {
    if (member.size != member.stored_size) __builtin_trap();
    // A file cut off by a short image is listed (its own row fails) only with a warning saying so.
    if (!source.contains(member.offset, member.size)) {
      if (listed.value().warnings.empty()) __builtin_trap();
      all_inside = false;
      continue;
    }
    source.read(member.offset, std::span(head, static_cast<std::size_t>(std::min<std::uint64_t>(member.size, 64))));
  }
  if (all_inside) round_trip(source, listed.value());
  return 0;
}
