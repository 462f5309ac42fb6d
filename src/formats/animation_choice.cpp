#include "formats/animation_choice.h"

#include <fmt/format.h>

namespace animdex {

std::string choices_text(const std::vector<std::string>& choices, std::string_view noun) {
  if (choices.empty()) return fmt::format("no {}", noun);
  if (choices.size() <= kChoicesShownInFull) return fmt::format("{}", fmt::join(choices, ", "));
  return fmt::format("{} .. {} ({} {})", choices.front(), choices.back(), choices.size(), noun);
}

}  // namespace animdex
