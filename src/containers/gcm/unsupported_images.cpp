#include "containers/gcm/unsupported_images.h"

#include <algorithm>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "containers/gcm/gcm_container.h"
#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::gcm {

namespace {

constexpr std::uint32_t kGczMagic = 0xB10BC001;  // little-endian at 0 (Dolphin's CompressedBlob.h)
constexpr std::uint32_t kTgcMagic = 0xAE0F38A2;  // big-endian at 0
// NKit marks its images with "NKIT" at 0x200 (Dolphin's VolumeDisc::IsNKit); its GameCube images keep
// the disc magic, so this module, asked before the GameCube reader, is what refuses them.
constexpr std::uint64_t kNkitMagicOffset = 0x200;
constexpr std::uint64_t kHeadBytes = kNkitMagicOffset + 4;

bool starts_with(const ByteReader& head, std::string_view magic) {
  if (!head.contains(0, magic.size())) return false;
  for (std::size_t i = 0; i < magic.size(); ++i)
    if (head.u8(i) != static_cast<unsigned char>(magic[i])) return false;
  return true;
}

// What the refusal says: the kind, and the note's advice (containers.md 2).
std::string advice(UnsupportedImage kind) {
  if (kind == UnsupportedImage::wii)
    return "a GameCube disc, not a Wii disc: Wii partitions are encrypted and not read (extract its files "
           "with Dolphin, Properties > Filesystem, and index the folder)";
  return fmt::format("a plain GameCube image, not {}: convert to ISO with Dolphin (Convert File)",
                     unsupported_image_name(kind));
}

bool detect_unsupported(std::span<const std::byte> head, std::uint64_t /*size*/) {
  return unsupported_image_kind(head).has_value();
}

Result<MemberList> refuse(const ContainerInput& input, const ContainerLimits& /*limits*/) {
  return catch_parse_failure<MemberList>([&]() -> MemberList {
    const std::vector<std::byte> head = input.table.read_vector(0, std::min<std::uint64_t>(input.table.size(), kHeadBytes));
    const auto kind = unsupported_image_kind(head);
    if (!kind) fail_at(0, "a GCZ, WIA, RVZ, WBFS, TGC, NKit or Wii image (the kinds this module refuses)", "none of their magics");
    fail_at(0, advice(*kind), fmt::format("a {} image", unsupported_image_name(*kind)));
  });
}

}  // namespace

std::optional<UnsupportedImage> unsupported_image_kind(std::span<const std::byte> head) {
  const ByteReader reader(head);
  if (reader.contains(0, 4)) {
    if (reader.u32le(0) == kGczMagic) return UnsupportedImage::gcz;
    if (reader.u32be(0) == kTgcMagic) return UnsupportedImage::tgc;
  }
  if (starts_with(reader, std::string_view("WIA\x01", 4))) return UnsupportedImage::wia;
  if (starts_with(reader, std::string_view("RVZ\x01", 4))) return UnsupportedImage::rvz;
  if (starts_with(reader, "WBFS")) return UnsupportedImage::wbfs;
  if (reader.contains(kNkitMagicOffset, 4) && reader.ascii(kNkitMagicOffset, 4) == "NKIT") return UnsupportedImage::nkit;
  if (reader.contains(kWiiMagicOffset, 4) && reader.u32be(kWiiMagicOffset) == kWiiMagic) return UnsupportedImage::wii;
  return std::nullopt;
}

std::string_view unsupported_image_name(UnsupportedImage kind) {
  switch (kind) {
    case UnsupportedImage::gcz: return "GCZ";
    case UnsupportedImage::wia: return "WIA";
    case UnsupportedImage::rvz: return "RVZ";
    case UnsupportedImage::wbfs: return "WBFS";
    case UnsupportedImage::tgc: return "TGC";
    case UnsupportedImage::nkit: return "NKit";
    case UnsupportedImage::wii: return "Wii disc";
  }
  return "unknown";
}

ContainerModule unsupported_image_module() {
  ContainerModule module;
  module.id = "unsupported_image";
  module.description = "GCZ, WIA, RVZ, WBFS, TGC, NKit and Wii images: recognised and refused with advice";
  module.detect = detect_unsupported;
  module.list = refuse;
  return module;
}

}  // namespace animdex::gcm
