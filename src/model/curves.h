#pragma once
// Curves as plain values: what a format's `curves` capability (formats/capabilities.h) answers and
// what the plot pages, the docs and `export --bake` draw from. Units are stated per field.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/number_text.h"

namespace animdex {

struct AnimationCurves;

// `plot` and `export --bake`: every animated channel of the chosen animations (all of them when
// `slot` and `animation` are empty), as keys and as values sampled from the first key to the last.
struct CurveRequest {
  std::string animation;
  std::string slot;
  std::optional<double> fps;            // where the file's keys are frames at a rate it does not store
  double samples_per_second = 60.0;
  // Where set, each animation's curves are handed here as soon as they are made, instead of
  // gathered into the answer (which then holds none): `export` streams a whole motion set this
  // way with one animation in memory. It may throw (a failed write); formats hold no state that
  // such an exception could leave half-done.
  std::function<void(AnimationCurves&&)> each;
};

// One channel of one node over time. Times are seconds from the animation's time 0.
struct ChannelCurve {
  std::optional<std::int64_t> node;  // bone / joint / node number; empty for a file-level channel
  std::string node_kind;             // "bone", "ik_helper", "node", or empty
  std::string channel;               // "T.x", "R.w", "S.z", or the format's channel name
  std::vector<double> key_times, key_values;
  std::vector<double> sample_times, sample_values;
};

// What a format's `R.*` channels are, for `export --bake --rotations`: the rows of a 3x3 matrix
// (`R.m00` .. `R.m22`, DS; row vectors), Euler angles in radians applied X, then Y, then Z (`R.x`,
// `R.y`, `R.z`, KH2), or nothing a rotation can be made from alone (GNT's direction and twist,
// LightWave's channels).
enum class RotationChannels { other, matrix_rows, euler_xyz };

struct AnimationCurves {
  std::string animation;  // the name or ID a user passes to --anim / --slot
  std::string slot;       // empty where the file has one animation
  std::optional<std::int64_t> motion_id;  // the ID the game asks for (GNT: the slot; KH2: the slot's
                                          // motion ID), for the name the game's reference gives it
  double start_seconds = 0, end_seconds = 0;
  double frames_per_second = 60;  // the format's own frame rate, for frame labels
  Precision values = Precision::computed;  // how sample values are shown (core/number_text.h)
  RotationChannels rotations = RotationChannels::other;
  std::vector<ChannelCurve> channels;
};

}  // namespace animdex
