#pragma once
// Disc images animdex recognises but does not read (containers.md section 2, "Compressed
// images"): GCZ, WIA, RVZ, WBFS, TGC, NKit and Wii discs. Detecting them lets the scan say what the
// file is and what to do instead of calling it unknown.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "containers/container.h"

namespace animdex::gcm {

enum class UnsupportedImage { gcz, wia, rvz, wbfs, tgc, nkit, wii };

// The refused kind these first bytes show (magics: GCZ u32 LE 0xB10BC001 at 0, "WIA\x01",
// "RVZ\x01", "WBFS" at 0, TGC u32 BE 0xAE0F38A2 at 0, Wii u32 BE 0x5D1C9EA3 at 0x18), if any.
std::optional<UnsupportedImage> unsupported_image_kind(std::span<const std::byte> head);

// "GCZ", "WIA", "RVZ", "WBFS", "TGC", "NKit", "Wii disc".
std::string_view unsupported_image_name(UnsupportedImage kind);

// id "unsupported_image": detect = unsupported_image_kind; list always fails at offset 0 with an
// `expected` naming the kind and the advice (compressed kinds: convert to ISO with Dolphin).
ContainerModule unsupported_image_module();

}  // namespace animdex::gcm
