#pragma once
// The common animation model every format parser produces (ozz-style plain structs): only what
// every format has. The rules are written here and checked by model::validate(); what only one
// format has travels as rows of its own tables (model/format_rows.h).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/format_rows.h"

namespace animdex::model {

// One key of a track. Rules: `time` is finite, and keys are in non-decreasing time order.
struct Key {
  double time = 0.0;                // in the track's native unit (GNT: seconds; LightWave v1, Kuper,
                                    // NSBCA, KH2: frames; LightWave v3: seconds)
  std::optional<std::int64_t> frame;  // the key's frame number, where the format defines one
  std::optional<double> x, y, z, w;   // the values the track carries (finite); a time-only track has none
};

// The shape of the span that ends at a key and its parameters (p1..p6), for curve formats
// (LightWave; KH2 curves as shapes 1, 3, 4 with tangents in p1, p2). Rule: finite parameters.
struct KeySpline {
  int shape = 0;
  std::optional<int> linear_flag;  // LightWave v1 key lines only
  std::array<double, 6> params{};
};

// What a curve does before its first and after its last key (LightWave behaviour codes 0..5).
struct CurveBehaviors {
  int pre = 1;
  int post = 1;
};

// The keys that drive one bone (or node, or channel).
struct BoneTrack {
  std::optional<std::int64_t> bone_id;  // the format's bone/node number, >= 0 (GNT 0xFFFF is 65535)
  std::uint32_t flags = 0;              // the format's per-track flag word (meaning per format: bone_tracks.flags
                                        // in schema/README.md)
  std::uint32_t track_flags = 0;        // the format's channel flag word (TRANSLATE 0x01, SCALE 0x02, ROTATE 0x08
                                        // where a format maps to GNT's bits)
  std::string channels;                 // rule: printable ASCII; for a bone's track the letters T, R, S in that
                                        // order (e.g. "R", "TS"), empty if none, or an axis name (KH2 `Rx`); for a
                                        // track without a bone, the channel's name (LightWave `heading`, Kuper axis)
  std::string value_encoding;           // how values were stored, e.g. "bf16x4", "f32x4", "none"
  double total_time = 0.0;              // time of the last key, as stored (finite)
  std::vector<Key> keys;
  std::vector<KeySpline> splines;       // rule: empty, or one per key
  std::optional<CurveBehaviors> behaviors;
};

struct Animation {
  std::optional<std::int64_t> slot;       // position in its container (GNT: slot = animation ID)
  std::optional<std::int64_t> motion_id;  // the ID the game asks for
  std::string name;                       // the format's own name, if any (purpose names are joined later)
  std::optional<double> play_speed;       // finite
  std::optional<double> end_time;         // native unit (GNT: seconds); finite
  std::optional<std::int64_t> frame_count;
  std::vector<BoneTrack> tracks;
};

// A header fact shown by `animdex info` (e.g. slot_count = 512).
struct Property {
  std::string name;
  std::string value;
};

struct AnimationFile {
  std::vector<Property> properties;
  std::vector<Animation> animations;
  std::vector<std::string> warnings;   // sanity warnings that did not stop the parse
  std::vector<FormatRow> format_rows;  // rows of the format's own tables; rule: references in range
};

}  // namespace animdex::model
