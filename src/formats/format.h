#pragma once
// The small interface every format module implements (assimp-style importer):
// detect from bytes -> parse (pure) -> common model.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/result.h"
#include "formats/capabilities.h"
#include "model/animation.h"

namespace animdex {

// How help texts and the README name a format: generated lists, so a new format's words live in
// its folder. Empty fields are left out of the lists.
struct FormatHelp {
  std::string_view family = {};      // "GNT", "KH2", "NDS", "LightWave": one name per game or tool
  std::string_view extensions = {};  // the usual file names, "/"-joined (".mset/.anb")
  std::string_view slot = {};        // what --slot selects ("animation ID (decimal or 0x hex)")
  std::string_view animation = {};   // what --anim selects ("animation name")
  std::string_view frame = {};       // what --frame counts ("1/60 s")
  std::string_view fps = {};         // the rate --fps defaults to where keys are untimed frames ("30")
};

struct FormatModule {
  std::string_view id;           // value stored in files.format, e.g. "gnt_mot"
  std::string_view description;  // one line for --help and docs
  std::string_view reference_game;  // the game its bone and motion numbers belong to: the key into the
                                    // reference tables (bone names, purposes); empty when none

  // Is this file ours? `head` holds the first bytes (up to kDetectBytes), `file_size` the full size.
  // Must be cheap and must not reject a damaged file of this format that parse() can describe.
  bool (*detect)(std::span<const std::byte> head, std::uint64_t file_size);

  // Whole file in, common model or a precise error out. No I/O and no state of its own: the only
  // state a parse reads is its thread's budget and deadline (core/parse_budget.h,
  // core/parse_deadline.h), which the caller sets for the file and which bound it.
  Result<model::AnimationFile> (*parse)(std::span<const std::byte> bytes);

  bool motion_ids_in_hex = false;  // the community writes its motion IDs in hex (GNT: 0x0140)

  // Optional capabilities (formats/capabilities.h); nullptr where the format has none. Each takes
  // the whole file, parses it itself and is as pure as parse().
  Answer<Pose> (*pose)(std::span<const std::byte> bytes, const PoseRequest& request) = nullptr;
  Answer<std::vector<AnimationCurves>> (*curves)(std::span<const std::byte> bytes, const CurveRequest& request) = nullptr;
  Answer<Converted> (*convert)(std::span<const std::byte> bytes, const ConvertRequest& request) = nullptr;
  Answer<std::vector<model::Skeleton>> (*skeletons)(std::span<const std::byte> bytes,
                                                    const SkeletonRequest& request) = nullptr;
  Answer<std::vector<ExportEntry>> (*exportable)(std::span<const std::byte> bytes, const ExportRequest& request) = nullptr;
  // The entry's local transforms per frame on `skeleton` (one the entry fits; the caller checks).
  Answer<model::SampledAnimation> (*sample)(std::span<const std::byte> bytes, const ExportRequest& request,
                                            const ExportEntry& entry, const model::Skeleton& skeleton) = nullptr;
  // Why the format's animations cannot be exported at all (GNT: no skeleton in what animdex reads).
  std::string_view no_export = {};

  // Hooks the layers above ask every format through the registry (formats/registry.h), so what a
  // format knows stays in its folder; nullptr where the format has nothing to say.
  // Files of the format's family it recognises but does not parse (BTX0 textures beside BMD0
  // models): a sniffed compressed DS member that decodes to one is kept decompressed.
  bool (*recognizes)(std::span<const std::byte> head) = nullptr;
  // Games that name a file after the object owning it (KH2: P_EX100.mset is P_EX100's): the object,
  // from the file's name alone; nullopt when the name is not one. The indexer takes it as the
  // file's character when the file sits in a folder named `object_folder`, else looks it up in the
  // reference objects of `reference_game`.
  std::optional<std::string_view> (*object_from_file_name)(std::string_view file_name) = nullptr;
  std::string_view object_folder = {};
  // The words for a slot's state number (KH2's mset_slots.state: "battle, weapon"); nullopt when
  // the number has none.
  std::optional<std::string_view> (*state_name)(std::int64_t state) = nullptr;
  FormatHelp help = {};
};

// How many leading bytes detection may look at.
inline constexpr std::size_t kDetectBytes = 4096;

}  // namespace animdex
