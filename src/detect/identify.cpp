#include "detect/identify.h"

#include "containers/container_registry.h"
#include "formats/registry.h"

namespace animdex {

std::string_view identify(std::span<const std::byte> head, std::uint64_t size, std::string_view name) {
  if (const auto* container = detect_container(head, size, name)) return container->id;
  if (const auto* format = detect_format(head, size)) return format->id;
  return "unknown";
}

bool known_content(std::span<const std::byte> head) {
  return recognized_by_a_format(head) || detect_container(head, head.size(), "") != nullptr;
}

}  // namespace animdex
