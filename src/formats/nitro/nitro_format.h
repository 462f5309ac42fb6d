#pragma once
// Pieces every Nitro format module shares when it maps its file to the common model.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/format.h"
#include "model/animation.h"

namespace animdex::nitro {

bool has_magic(std::span<const std::byte> head, std::string_view magic);

// `module` as one of the Nitro family (help texts name it "NDS"; `extension` its file names).
FormatModule in_nitro_family(FormatModule module, std::string_view extension);

// The file-level properties (version, animation_count) and warnings.
model::AnimationFile nitro_file_model(std::uint16_t version, std::size_t animation_count,
                                      const std::vector<std::string>& warnings);

// An animation of `frame_count` frames: times are frames, from 0 to frame_count-1.
model::Animation nitro_animation(const std::string& name, int frame_count);

}  // namespace animdex::nitro
