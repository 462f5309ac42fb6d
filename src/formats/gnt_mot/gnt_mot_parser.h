#pragma once
#include <cstddef>
#include <span>

#include "core/result.h"
#include "formats/gnt_mot/gnt_mot_types.h"
#include "model/animation.h"

namespace animdex::gnt_mot {

// Parses a whole .mot, enforcing every invariant of the format note's
// "Parser invariants" list; the first violation is returned with its offset.
Result<MotFile> parse_mot(std::span<const std::byte> bytes);

// The same walk and checks, decoded straight into the common model (what to_model(parse_mot())
// gives, without the file's own structs): the index's path.
Result<model::AnimationFile> parse_mot_model(std::span<const std::byte> bytes);

}  // namespace animdex::gnt_mot
