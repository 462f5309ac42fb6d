#pragma once
// What `export --gltf`, `pose --world`, `view` and the players of `report docs` and `plot` share:
// a file's exportable animations (formats' `exportable`), the skeleton each plays on (--model, or
// the link rule among the models beside the file: cli/skeleton_search.h), one plan of what goes
// into one file on one skeleton and what is left out and why, and the sampling into a glTF writer.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "formats/capabilities.h"
#include "formats/registry.h"
#include "indexer/member_input.h"
#include "rig/gltf_writer.h"
#include "rig/skeleton_link.h"

namespace animdex {

using Loaded = std::pair<InputBytes, const FormatModule*>;

// The input and the module that exports it, or the exit code; a format that can never export
// says why (GNT) rather than only which formats can.
std::variant<Loaded, int> load_exportable(const std::filesystem::path& path, std::string_view verb);

// Joints the file leaves unnamed take the game's bone names, else "bone N".
void name_joints(model::Skeleton& skeleton, std::string_view game);

// The animation's name with its purpose where the reference tables know its motion ID.
std::string label_of(const ExportEntry& entry, std::string_view game);

// The animations one file exports together, on one skeleton, and what was left out and why.
struct Plan {
  std::optional<rig::SkeletonCandidate> skeleton;
  std::vector<const ExportEntry*> entries;
  std::vector<std::string> left_out;     // why each animation not in the file is not
  std::vector<std::string> over_budget;  // animations left out because the file reached its budget
};

// The plan for `file`, which must export something (else a usage error naming `verb`'s goal):
// with `chosen_by_name` (--slot or --anim), everything asked for.
std::variant<Plan, int> checked_plan(const std::vector<ExportEntry>& entries, const std::filesystem::path& file,
                                     const std::filesystem::path& model, bool chosen_by_name, std::string_view verb);

// The first reasons (a file controls how many animations it has), then how many more.
std::string listed(const std::vector<std::string>& lines);

// The request for `file` with the animation the user chose (--slot, --anim, --fps) and a rate.
ExportRequest request_of(const std::filesystem::path& file, const PoseRequest& chosen, std::optional<double> rate);

// The entries, or the exit code of the capability's error.
std::variant<std::vector<ExportEntry>, int> entries_of(const Loaded& loaded, const ExportRequest& request,
                                                       const std::filesystem::path& file);

// One entry sampled and checked against the skeleton, or the exit code.
std::variant<model::SampledAnimation, int> sampled(const Loaded& loaded, const ExportRequest& request,
                                                   const ExportEntry& entry, const model::Skeleton& skeleton,
                                                   const std::filesystem::path& file);

// One exported animation as a player lists it.
struct ExportedAnimation {
  std::string name;        // the glTF animation's name
  std::string slot;        // the format's slot text (as curves and --slot name it), empty where it has none
  std::string source_name; // the format's own name of it (DS: what --anim takes)
  double fps = 60;         // samples per second
  double first_time = 0;   // seconds of its first sample in the source's own time
  std::size_t frames = 0;  // samples
};

// A file's animations on their skeleton in a glTF writer, and what the user is told about it.
struct Exported {
  std::unique_ptr<rig::GltfWriter> writer;
  std::string skeleton_source;
  std::size_t joints = 0;
  std::vector<std::string> joint_names;  // the joints' names (the glTF's node names may carry a suffix)
  std::vector<ExportedAnimation> animations;
  std::set<std::string> notes;
  std::vector<std::string> left_out;     // why each animation not in the file is not
  std::vector<std::string> over_budget;  // animations left out because the file reached its budget
};

// The size one `export --gltf` file's animations may reach together: 64 MiB. Sora's 86 motions at
// their own rates take 7.85 MB.
inline constexpr std::size_t kGltfBufferBudget = 64u << 20;

// Which of a file's animations to export (empty: all).
using EntryFilter = std::function<bool(const ExportEntry&)>;

// Loads, plans and samples every planned animation into one writer. From the first animation that
// could take the file past `budget` bytes (GltfWriter::approximate_size) on, they are left out and listed (the first always goes in: the samples
// budget bounds one animation), so memory stays bounded whatever the rate or the count. The first
// `skip` planned animations are passed over (another file of the same export holds them); only the
// entries `keep` accepts are planned.
std::variant<Exported, int> export_file(const std::filesystem::path& file, const ExportRequest& request,
                                        const std::filesystem::path& model, std::string_view verb,
                                        std::size_t budget, std::size_t skip = 0, const EntryFilter& keep = {});

}  // namespace animdex
