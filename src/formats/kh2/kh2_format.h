#pragma once
// The five KH2 format modules. A BAR is classified by its entry types (kh2-mset.md "MSET layout",
// kh2-mdlx.md): a model entry (type 4) -> kh2_mdlx; only Anb / Motionset / empty entries -> kh2_mset;
// Motion + MotionTriggers -> kh2_anb; anything else -> kh2_bar. A bare Motion is 0x90 zero bytes
// then a motion header.
#include "formats/format.h"

namespace animdex::kh2 {

enum class BarKind { model, motion_set, anb, other };

// Classifies a BAR from the entries visible in `head`; nullopt when the bytes are not a BAR.
std::optional<BarKind> classify_bar(std::span<const std::byte> head, std::uint64_t file_size);

bool detect_motion_set(std::span<const std::byte> head, std::uint64_t file_size);
bool detect_anb(std::span<const std::byte> head, std::uint64_t file_size);
bool detect_plain_bar(std::span<const std::byte> head, std::uint64_t file_size);
bool detect_bare_motion(std::span<const std::byte> head, std::uint64_t file_size);
bool detect_model(std::span<const std::byte> head, std::uint64_t file_size);

// A KH2 object's code from a file named after it (`P_EX100.mset` with extension "mset" -> `P_EX100`).
std::optional<std::string_view> object_of_file(std::string_view file_name, std::string_view extension);
FormatModule in_family(FormatModule module, std::string_view extensions = {});

FormatModule motion_set_format_module();
FormatModule anb_format_module();
FormatModule bar_format_module();
FormatModule motion_format_module();
FormatModule mdlx_format_module();

}  // namespace animdex::kh2
