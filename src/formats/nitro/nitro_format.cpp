#include "formats/nitro/nitro_format.h"

namespace animdex::nitro {

FormatModule in_nitro_family(FormatModule module, std::string_view extension) {
  module.help.family = "NDS";
  module.help.extensions = extension;
  module.help.animation = "animation name";
  module.help.frame = "an integer frame";
  return module;
}

bool has_magic(std::span<const std::byte> head, std::string_view magic) {
  if (head.size() < magic.size()) return false;
  for (std::size_t i = 0; i < magic.size(); ++i)
    if (head[i] != static_cast<std::byte>(magic[i])) return false;
  return true;
}

model::AnimationFile nitro_file_model(std::uint16_t version, std::size_t animation_count,
                                      const std::vector<std::string>& warnings) {
  model::AnimationFile out;
  out.properties.push_back({"version", std::to_string(version)});
  out.properties.push_back({"animation_count", std::to_string(animation_count)});
  out.warnings = warnings;
  return out;
}

model::Animation nitro_animation(const std::string& name, int frame_count) {
  model::Animation animation;
  animation.name = name;
  animation.frame_count = frame_count;
  animation.end_time = static_cast<double>(frame_count - 1);
  return animation;
}

}  // namespace animdex::nitro
