// Fuzzes the ISO9660 reader (containers.md section 5): any image lists or fails cleanly with an
// offset inside it and a non-empty `expected`; every listed file lies inside the image. Then a writer
// round trip: the listed files written into a new image list back with the same paths and bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "containers/byte_source.h"
#include "containers/iso9660/iso9660_container.h"
#include "containers/iso9660/iso9660_writer.h"

using namespace animdex;
using namespace animdex::iso9660;

namespace {

constexpr std::uint64_t kMaxRoundTripBytes = 1 << 20;

std::map<std::string, std::vector<std::byte>> contents(const MemberList& listed, std::span<const std::byte> image) {
  std::map<std::string, std::vector<std::byte>> files;
  for (const auto& member : listed.members) {
    const auto bytes = image.subspan(static_cast<std::size_t>(member.offset), static_cast<std::size_t>(member.size));
    files[member.path] = {bytes.begin(), bytes.end()};
  }
  return files;
}

void check_round_trip(const MemberList& listed, std::span<const std::byte> image) {
  std::uint64_t total = 0;
  for (const auto& member : listed.members) total += member.size;
  if (total > kMaxRoundTripBytes || listed.members.size() > 256) return;
  const auto files = contents(listed, image);
  std::vector<IsoFile> written;
  for (const auto& [path, bytes] : files) written.push_back({path, bytes});
  std::vector<std::byte> rebuilt;
  try {
    rebuilt = build_iso9660(written);
  } catch (const std::invalid_argument&) {
    return;  // a listed name the writer does not record (e.g. ending in '.', nested past level 8 by a file)
  }
  const MemorySource source(rebuilt);
  auto relisted = list_iso9660({source, source, "rebuilt.iso"}, {});
  if (!relisted.ok() || !relisted.value().warnings.empty()) __builtin_trap();
  if (contents(relisted.value(), rebuilt) != files) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const MemorySource source(bytes);
  ContainerLimits limits;
  limits.max_members = 4096;
  limits.max_table_size = 1 << 20;
  auto listed = list_iso9660({source, source, "fuzz.iso"}, limits);
  if (!listed.ok()) {
    if (listed.error().expected.empty() || listed.error().offset > size) __builtin_trap();
    return 0;
  }
  for (const auto& member : listed.value().members)
    if (member.offset > size || member.size > size - member.offset || member.stored_size != member.size) __builtin_trap();
  check_round_trip(listed.value(), bytes);
  return 0;
}
