#include "containers/container_registry.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>

#include "containers/ciso/ciso_container.h"
#include "containers/fpk/fpk_container.h"
#include "containers/fpk/prs.h"
#include "containers/gcm/gcm_container.h"
#include "containers/gcm/unsupported_images.h"
#include "containers/iso9660/iso9660_container.h"
#include "containers/kh2_idx/kh2_compression.h"
#include "containers/kh2_idx/kh2_idx_container.h"
#include "containers/lz/lz.h"
#include "containers/narc/narc_container.h"
#include "containers/nds/nds_container.h"

namespace animdex {

namespace {
// One line per container. Order matters only where two could claim the same bytes: the refusal of
// compressed and Wii images goes before the GameCube reader.
const std::array kContainers = {
    gcm::unsupported_image_module(),
    gcm::container_module(),
    ciso::container_module(),
    iso9660::container_module(),
    nds::container_module(),
    narc::container_module(),
    fpk::container_module(),
    kh2_idx::container_module(),
};

// One line per codec; a member's stream is sniffed in this order (Member::may_be_compressed).
const std::array<const Codec*, 4> kCodecs = {&fpk::kPrsCodec, &lz::kLz10Codec, &lz::kLz11Codec, &kh2_idx::kKh2Codec};

bool ends_with_ignoring_case(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && equal_ignoring_case(text.substr(text.size() - suffix.size()), suffix);
}

std::string_view without_extension(std::string_view path) {
  const auto slash = path.rfind('/');
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return path;
  return path.substr(0, dot);
}
}  // namespace

std::span<const ContainerModule> registered_containers() { return kContainers; }

const ContainerModule* detect_container(std::span<const std::byte> head, std::uint64_t size, std::string_view name) {
  if (head.size() > kContainerDetectBytes) head = head.first(kContainerDetectBytes);
  for (const auto& container : kContainers) {
    if (!container.required_extension.empty() && !ends_with_ignoring_case(name, container.required_extension))
      continue;
    if (container.detect(head, size)) return &container;
  }
  return nullptr;
}

const ContainerModule* find_container(std::string_view id) {
  for (const auto& container : kContainers)
    if (container.id == id) return &container;
  return nullptr;
}

std::string why_not_a_container(std::span<const std::byte> head, std::uint64_t size, std::string_view name) {
  for (const auto& container : kContainers) {
    if (!container.why_not || container.usual_extension.empty() || !ends_with_ignoring_case(name, container.usual_extension))
      continue;
    if (auto error = container.why_not(head, size))
      return fmt::format("not read as {}: {}", container.id, error->message());
  }
  return {};
}

bool is_container_format(std::string_view format_id) { return find_container(format_id) != nullptr; }

std::span<const Codec* const> registered_codecs() { return kCodecs; }

const Codec* find_codec(std::string_view id) {
  for (const Codec* codec : kCodecs)
    if (codec->id == id) return codec;
  return nullptr;
}

bool same_stem_with_extension(std::string_view path, std::string_view candidate, std::string_view extension) {
  return ends_with_ignoring_case(candidate, extension) &&
         equal_ignoring_case(without_extension(path), without_extension(candidate));
}

}  // namespace animdex
