#pragma once
// What a file or member is: a container or a format, asked of both registries. The layer above
// formats/ and containers/, which know nothing of each other: a container that must know whether
// a decoded stream is worth keeping (containers/member_bytes.h, ContentTest) is handed
// known_content by whoever opens its members.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace animdex {

// A container's id, a format's id, or "unknown", from the first bytes of a file or member (the
// name matters to containers that require an extension).
std::string_view identify(std::span<const std::byte> head, std::uint64_t size, std::string_view name);

// Whether these decoded bytes start a file some format recognises (its own or one of its family's
// that it does not index) or a container: the test a sniffed compressed member must pass.
bool known_content(std::span<const std::byte> head);

}  // namespace animdex
