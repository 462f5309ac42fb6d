#pragma once
// LightWave motion (LWMO) and envelope (LWEN) files, and Kuper ASCII motion-control exports,
// as ../shared/formats/lightwave-mot.md describes them.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace animdex::lightwave {

enum class FileKind { motion, envelope };  // LWMO, LWEN

// Span shapes of version 3 (the shape of a key applies to the span that ends at it).
enum Shape : int { kTcb = 0, kHermite = 1, kBezier1D = 2, kLinear = 3, kStepped = 4, kBezier2D = 5 };
// Pre/post behaviours.
enum Behavior : int { kReset = 0, kConstant = 1, kRepeat = 2, kOscillate = 3, kOffsetRepeat = 4, kLinearBehavior = 5 };

struct Key {
  double value = 0.0;
  double time = 0.0;                 // v1: the frame number; v3: seconds
  int shape = kTcb;
  std::array<double, 6> params{};    // v3: p1..p6; v1: tension, continuity, bias, 0, 0, 0
  std::optional<int> linear_flag;    // v1 only: the key line's linear flag (1 -> shape kLinear)
};

struct Channel {
  int index = 0;
  std::vector<Key> keys;             // increasing time
  int pre_behavior = kConstant;
  int post_behavior = kConstant;
};

struct LwFile {
  FileKind kind = FileKind::motion;
  int version = 1;
  std::vector<Channel> channels;
  std::vector<std::string> warnings;  // sanity warnings from the note's validation list
};

// A Kuper ASCII export: `Axes = A, B, ...` then one line of numbers per camera frame.
struct KuperFile {
  std::vector<std::string> axes;
  std::vector<std::vector<double>> frames;  // frames[f][axis]
};

// Channel names by index (0..8: x y z heading pitch bank sx sy sz); "value" for envelopes.
std::string channel_name(FileKind kind, int index);

}  // namespace animdex::lightwave
