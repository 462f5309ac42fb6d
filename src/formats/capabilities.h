#pragma once
// What a format can do besides being indexed: the optional capabilities a module declares
// (pose, bake, convert). The CLI dispatches through them and names no format; each answers with
// plain values, so formats include no CLI or output code.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/parse_error.h"
#include "model/curves.h"
#include "model/skeleton.h"
#include "model/table.h"

namespace animdex {

// Why a capability gave no answer: the request does not fit the file (`usage`: an unknown animation
// name, a frame outside the animation), or the file itself is broken.
struct CapabilityError {
  enum class Kind { usage, file } kind = Kind::file;
  std::string message;
};
template <typename T>
using Answer = std::variant<T, CapabilityError>;

inline CapabilityError usage_error(std::string message) { return {CapabilityError::Kind::usage, std::move(message)}; }
inline CapabilityError file_error(const ParseError& error) { return {CapabilityError::Kind::file, error.message()}; }

// `pose`: the time to evaluate at (seconds, or a frame at `fps`, else at the format's own rate)
// and, in files with several animations, which one: `slot` (a position: GNT's animation ID, a KH2
// slot `N` or `N/M` inside a nested motion set) or `animation` (a name); both empty: the first.
struct PoseRequest {
  std::optional<double> seconds;
  std::optional<double> frame;
  std::optional<double> fps;
  std::string animation;
  std::string slot;
};

// A pose cell: a scalar, or a vector such as a node's translation or its 3x3 rotation. A vector
// component the file cannot supply (a KH2 channel left to the model's bind pose) is NaN, printed as
// null in JSON and as an empty cell in tables. Text vectors say where each component came from.
using PoseValue =
    std::variant<std::monostate, std::int64_t, double, std::string, std::vector<double>, std::vector<std::string>>;

// Rows are nodes (bones, joints, channels): a `node` column first and, where the format's game has
// bone names, a `name` column the CLI fills from the reference tables.
struct Pose {
  std::vector<std::pair<std::string, PoseValue>> about;  // what was evaluated (animation, frame, ...)
  std::string rows_name = "rows";                        // JSON: the rows' key when `about` is not empty
  std::vector<std::string> columns;
  // Per column, how many numbers its vectors hold (0: not a vector column), so tables get the same
  // component columns (`T.x`, `R.m01`) even when every row leaves that vector out (a bind pose).
  std::vector<std::size_t> vector_sizes;
  std::vector<std::vector<PoseValue>> rows;
  // How the rows' numbers are shown (core/number_text.h): the kind of number the format stores
  // (float32, exact fixed point or text), or `computed` for arithmetic on several values.
  Precision values = Precision::computed;
  // What the user should know about the answer that is not a value: a time past the animation's
  // keys and the rule that gives the values there. The CLI prints each on stderr.
  std::vector<std::string> notes;
};

// `skeletons`: the skeletons a model file holds (a DS model set: one per model), for `pose --world`
// and `export --gltf`. `file_name` is the file's or member's name, for formats that name a
// skeleton after its file (KH2: `P_EX100.mdlx` is `P_EX100`).
struct SkeletonRequest {
  std::string file_name;
};

// `exportable` and `sample`: which animations (`slot` or `animation` as for pose; both empty:
// every one), at `rate` samples per second (empty: the source's own), or only the one `frame` at
// that rate or time in `seconds` (pose --world). `file_name` as for skeletons (KH2 looks for its
// model by it).
struct ExportRequest {
  std::string slot;
  std::string animation;
  std::string file_name;
  std::optional<double> rate;      // samples per second (default: the source's own)
  std::optional<double> file_fps;  // frames per second of a file whose keys are untimed frames (LightWave v1)
  std::optional<double> frame;     // one frame at the rate, instead of every frame
  std::optional<double> seconds;   // one time, instead of every frame
};

// One animation a file can export, and the skeleton it needs (the link rule's facts, so the CLI
// finds it among the file's neighbours the way the index does).
struct ExportEntry {
  std::size_t index = 0;      // what `sample` takes back
  std::string name;           // the export's animation name (DS: its name; KH2: slot and motion)
  std::string slot;           // what --slot takes for it, as its curves name it (KH2); empty without slots
  std::optional<std::int64_t> motion_id;  // for the purpose the reference tables give it
  std::size_t joints = 0;     // the skeleton's joints it animates
  bool exact_joints = true;   // false: a skeleton with more joints fits (DS nodes past the animation's)
  std::vector<std::string> skeleton_names;  // the names to look for, in order (KH2: own name, base code)
  bool by_joint_count = false;  // with none of those names around, the one skeleton of `joints`
  bool merge_identical = true;  // byte-identical candidates count as one skeleton
  std::optional<model::Skeleton> own_skeleton;  // it animates a node of its own (LightWave)
  std::string refusal;        // non-empty: why it cannot be exported (a dummy slot, 0 frames)
};

// `convert`: the version to write (empty: the format's default), the frame rate between frames and
// seconds, and NAME=CHANNEL[:SCALE] mappings for formats whose axes need placing.
struct ConvertRequest {
  std::optional<int> version;
  double fps = 30.0;
  std::vector<std::string> mappings;
};

struct Converted {
  std::string bytes;    // the file to write
  std::string summary;  // one line for the user, e.g. "LWMO version 1, 9 channels, 5 keys each"
};

}  // namespace animdex
