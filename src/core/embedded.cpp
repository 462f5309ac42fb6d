#include "core/embedded.h"

namespace animdex {

std::optional<std::string_view> embedded_file(std::string_view path) {
  for (const auto& file : embedded_files())
    if (file.path == path) return file.content;
  return std::nullopt;
}

}  // namespace animdex
