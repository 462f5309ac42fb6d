#pragma once
// The common animation model every format parser produces (ozz-style plain structs).
// Format-specific facts that do not fit here stay in the format's own folder.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace animdex::model {

// One key of a track. `time` is in the track's native unit (GNT: seconds at 60 fps);
// `frame` is the key's frame number where the format defines one. Values a track does
// not carry stay empty (a time-only GNT track has no x/y/z/w).
struct Key {
  double time = 0.0;
  std::optional<std::int64_t> frame;
  std::optional<double> x, y, z, w;
};

// Spline data of curve formats (LightWave), parallel to a track's keys: the shape of the span
// that ends at the key and its parameters (p1..p6).
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
  std::optional<std::int64_t> bone_id;  // format's bone/node number; GNT 0xFFFF is kept as 65535
  std::uint32_t flags = 0;              // format's per-track flag word (GNT: flags1)
  std::uint32_t track_flags = 0;        // format's channel flag word (GNT: TRANSLATE/SCALE/ROTATE/...)
  std::string channels;                 // channel letters in T, R, S order, e.g. "R" or "TS"; empty if none
  std::string value_encoding;           // how values were stored, e.g. "bf16x4", "f32x4", "none"
  double total_time = 0.0;              // time of the last key, as stored
  std::vector<Key> keys;
  std::vector<KeySpline> splines;       // empty, or one per key (curve formats)
  std::optional<CurveBehaviors> behaviors;
  std::string state;  // where the values come from when the format says (NSBCA: const, animated, per-axis mix)
};

// Per node of a skeletal animation, where each channel group comes from (NSBCA: identity, base,
// const, animated, or a per-axis mix such as "x=const y=animated z=const").
struct NodeChannelStates {
  std::int64_t node_index = 0;
  std::int64_t node_id = 0;
  std::uint32_t tag = 0;
  std::string translation, rotation, scale;
};

struct Animation {
  std::optional<std::int64_t> slot;       // position in its container (GNT: slot = animation ID)
  std::optional<std::int64_t> motion_id;  // the ID the game asks for
  std::string name;                       // the format's own name, if any (purpose names are joined later)
  std::optional<double> play_speed;
  std::optional<double> end_time;         // native unit (GNT: seconds)
  std::optional<std::int64_t> frame_count;
  std::string kind;                       // format's animation kind where it has several (KH2: raw, interpolated)
  std::optional<std::int64_t> bone_count;        // bones the animation is built for (KH2 header)
  std::optional<std::int64_t> total_bone_count;  // KH2: bones + IK helpers
  std::optional<double> fps, frame_start, frame_end, frame_return;  // KH2 frame data (frame_return: loop start)
  std::vector<BoneTrack> tracks;
  std::vector<NodeChannelStates> node_states;  // NSBCA: one per node tag, identity nodes included
};

// An entry of an archive the file is (KH2 BAR): motion-set slots, or a plain BAR's listing.
struct ArchiveEntry {
  std::optional<std::int64_t> parent_slot;  // the nested motion set's slot; empty at the top level
  std::int64_t slot = 0;                    // position in its archive
  std::string name;
  std::int64_t type_code = 0;
  std::string type_name;
  bool is_dummy = false;
  std::int64_t size = 0;
  std::int64_t data_offset = 0;             // absolute in the file
  std::optional<std::int64_t> duplicate_of; // earlier slot holding the same data
  std::int64_t duplicate_flag = 0;          // the archive's own flag, as stored
  std::optional<std::int64_t> set_type;     // motion sets: 0 Default, 1 Player, 2 Raw
  std::optional<std::int64_t> motion_id, state;
  std::optional<std::size_t> animation_index;  // into AnimationFile::animations
};

// Which slot the game plays for a (motion, state) of a motion set, after its fallback rules.
struct SlotResolution {
  std::optional<std::int64_t> parent_slot;
  std::int64_t motion_id = 0;
  std::optional<std::int64_t> state;
  std::int64_t resolved_slot = -1;  // -1: nothing to play
};

// A header fact shown by `animdex info` (e.g. slot_count = 512).
struct Property {
  std::string name;
  std::string value;
};

struct AnimationFile {
  std::vector<Property> properties;
  std::vector<Animation> animations;
  std::vector<std::string> warnings;  // sanity warnings that did not stop the parse
  std::vector<ArchiveEntry> archive_entries;
  std::vector<SlotResolution> slot_resolutions;
};

}  // namespace animdex::model
