#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "formats/gnt_mot/gnt_mot_types.h"

namespace animdex::gnt_mot {

// Why `mot` cannot be written (IDs out of range or repeated, key/coordinate counts that
// disagree, flags1 naming no encoding), or nullopt when it can.
std::optional<std::string> validate_for_writing(const MotFile& mot);

// Lays the file out as GNTool's packer does (format note, "GNTool repack"): slot table in
// ascending ID order, GNTAs from the highest ID down, each bone's times, padding, coordinates,
// padding, with every offset recomputed. Stored padding bytes are reused when their length
// matches, so a GNTool-laid-out file round-trips byte for byte; otherwise padding is zeros.
// Precondition: validate_for_writing(mot) is nullopt (throws std::invalid_argument if not).
std::vector<std::byte> write_mot(const MotFile& mot);

// Size of one GNTA as the writer lays it out (format note, "GNTA size").
std::uint64_t gnta_size(const GntAnimation& animation);

}  // namespace animdex::gnt_mot
