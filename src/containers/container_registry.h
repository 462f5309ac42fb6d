#pragma once
// The list of known containers, asked in a fixed order like the formats (formats/registry.h).
#include <cstdint>
#include <span>
#include <string_view>

#include "containers/container.h"
#include "core/text.h"  // equal_ignoring_case: disc paths are looked up ignoring case (Dolphin)

namespace animdex {

std::span<const ContainerModule> registered_containers();

// The container whose detect() claims these bytes (the first kContainerDetectBytes of the file or
// member) and whose required extension, if any, `name` ends with; nullptr when none does.
const ContainerModule* detect_container(std::span<const std::byte> head, std::uint64_t size, std::string_view name);

const ContainerModule* find_container(std::string_view id);

// Why a file named like a container (ContainerModule::usual_extension) is not one: "not read as
// nds: at offset 0x15C: expected the Nintendo logo CRC 0xCF56, found 0x0000"; empty otherwise.
std::string why_not_a_container(std::span<const std::byte> head, std::uint64_t size, std::string_view name);

bool is_container_format(std::string_view format_id);

// The compressions containers store members with (files.compression), each from its folder.
std::span<const Codec* const> registered_codecs();
const Codec* find_codec(std::string_view id);

// "a/b/KH2.IDX" with ".img" -> "a/b/KH2.IMG" when `candidates` has it (case-insensitive on the
// extension and stem), else empty. `candidates` are sibling names (file names, or member paths).
bool same_stem_with_extension(std::string_view path, std::string_view candidate, std::string_view extension);

}  // namespace animdex
