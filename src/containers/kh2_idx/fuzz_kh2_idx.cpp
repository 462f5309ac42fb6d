// Fuzzes the KH2.IDX reader (containers.md section 4) with the input as both the IDX and the IMG:
// it lists or fails cleanly with an offset inside the IDX; every member lies inside the IMG; members
// under 1 MiB decompress or fail cleanly. Then a writer round trip: the input cut into entries
// (some compressed) is built into an IDX/IMG pair that lists and reads back to the same bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "containers/byte_source.h"
#include "containers/kh2_idx/kh2_compression.h"
#include "containers/kh2_idx/kh2_idx_container.h"
#include "containers/kh2_idx/kh2_idx_writer.h"

using namespace animdex;
using namespace animdex::kh2_idx;
using Bytes = std::vector<std::byte>;

namespace {

constexpr std::uint64_t kMaxDecoded = 1 << 20;

void check_members(const MemberList& listed, std::span<const std::byte> img) {
  for (const auto& member : listed.members) {
    if (member.offset > img.size() || member.stored_size > img.size() - member.offset) __builtin_trap();
    if (member.path.empty() || member.stored_name.size() != 14) __builtin_trap();
    if (member.compression != &kh2_idx::kKh2Codec || member.size >= kMaxDecoded) continue;
    const auto stored = img.subspan(static_cast<std::size_t>(member.offset), static_cast<std::size_t>(member.stored_size));
    auto decoded = kh2_decompress(stored, member.size);
    if (!decoded.ok() && (decoded.error().expected.empty() || decoded.error().offset > stored.size())) __builtin_trap();
    if (decoded.ok() && decoded.value().size() != member.size) __builtin_trap();
  }
}

void check_listing(std::span<const std::byte> bytes) {
  const MemorySource source(bytes);
  ContainerLimits limits;
  limits.max_members = 4096;
  auto listed = list_kh2_idx({source, source, "fuzz.idx"}, limits);
  if (!listed.ok()) {
    if (listed.error().expected.empty() || listed.error().offset > bytes.size()) __builtin_trap();
    return;
  }
  check_members(listed.value(), bytes);
}

Bytes content_of(const Member& member, const std::vector<std::byte>& img) {
  const std::span<const std::byte> stored(img.data() + member.offset, static_cast<std::size_t>(member.stored_size));
  if (member.compression == nullptr) return Bytes(stored.begin(), stored.end());
  auto decoded = kh2_decompress(stored, member.size);
  if (!decoded.ok()) __builtin_trap();
  return std::move(decoded).value();
}

void check_writer(std::span<const std::byte> bytes) {
  std::vector<Kh2Entry> entries;
  const std::size_t piece = bytes.size() / 4 + 1;
  for (std::size_t start = 0, index = 0; start < bytes.size(); start += piece, ++index) {
    const auto part = bytes.subspan(start, std::min(piece, bytes.size() - start));
    entries.push_back({"fuzz/" + std::to_string(index) + ".bin", {part.begin(), part.end()}, index % 2 == 0, false});
  }
  const Kh2Image image = build_kh2_idx_img(entries);
  const MemorySource idx(image.idx), img(image.img);
  auto listed = list_kh2_idx({idx, img, "KH2.IDX"}, {});
  if (!listed.ok() || listed.value().members.size() != entries.size() || !listed.value().warnings.empty()) __builtin_trap();
  std::vector<Bytes> expected, found;
  for (const auto& entry : entries) expected.push_back(entry.bytes);
  for (const auto& member : listed.value().members) found.push_back(content_of(member, image.img));
  std::sort(expected.begin(), expected.end());
  std::sort(found.begin(), found.end());
  if (expected != found) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  check_listing(bytes);
  check_writer(bytes);
  return 0;
}
