#pragma once
// NARC archives (containers.md section 3 "NARC"): a 16-byte header, then the chunks BTAF (file
// allocation table), BTNF (a Nitro FNT) and GMIF (the members' bytes), little-endian.
#include <cstddef>
#include <cstdint>
#include <span>

#include "containers/container.h"

namespace animdex::narc {

// Magic "NARC" and the byte-order mark bytes FE FF at 4 (header size and chunk counts are left to list).
bool detect_narc(std::span<const std::byte> head, std::uint64_t size);

// Members in file-ID order, offsets from the start of input.data (= GMIF data start + start).
// Nameless archives (a BTNF naming no file): path = stored_name = the decimal index. Named ones:
// the FNT path (a file the FNT leaves unnamed keeps its index, with a warning). Every member is
// compression none with may_be_compressed = true. Errors name the offset of the broken field.
Result<MemberList> list_narc(const ContainerInput& input, const ContainerLimits& limits);

ContainerModule container_module();

}  // namespace animdex::narc
