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
