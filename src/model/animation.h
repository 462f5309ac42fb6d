#pragma once
// The common animation model every format parser produces (ozz-style plain structs): only what
// every format has. The rules are written here and checked by model::validate(); what only one
// format has travels as rows of its own tables (model/format_rows.h).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/format_rows.h"

namespace animdex::model {

// One key of a track, assembled from a track's key columns (KeyColumns::operator[]). Rules: `time`
// is finite, and keys are in non-decreasing time order.
struct Key {
  double time = 0.0;                // in the track's native unit (GNT: seconds; LightWave v1, Kuper,
                                    // NSBCA, KH2: frames; LightWave v3: seconds)
  std::optional<std::int64_t> frame;  // the key's frame number, where the format defines one
  std::optional<double> x, y, z, w;   // the values the track carries (finite); a time-only track has none
};

// A track's keys as flat columns (struct of arrays), the layout the database stores: one `time`
// per key, and every other column either one entry per key or empty (the track does not carry it).
// Rules: finite numbers, times in non-decreasing order, each column empty or as long as `time`.
// Values are doubles holding exactly what the file stored (a float32 widens exactly); the
// database's encoder (model/key_blob.h) narrows each column back to the narrowest exact width.
inline constexpr std::size_t kMaxTrackKeys = std::size_t{1} << 24;  // rule: keys per track, far above any budget
// What one key can cost in KeyColumns (a time, a frame, four values): parsers charge it to their
// memory budget before reading keys.
inline constexpr std::size_t kBytesPerKey = 5 * sizeof(double) + sizeof(std::int64_t);

struct KeyColumns {
  std::vector<double> time;
  std::vector<std::int64_t> frame;
  std::vector<double> x, y, z, w;

  std::size_t size() const noexcept { return time.size(); }
  bool empty() const noexcept { return time.empty(); }
  void reserve(std::size_t key_count);
  // Appends one key; a value it lacks leaves that column alone (so keys must agree on which they carry).
  void push_back(const Key& key);
  Key operator[](std::size_t index) const;
  Key front() const { return (*this)[0]; }
  Key back() const { return (*this)[size() - 1]; }
  bool operator==(const KeyColumns&) const = default;

  class const_iterator {
   public:
    using value_type = Key;
    using difference_type = std::ptrdiff_t;
    const_iterator() = default;
    const_iterator(const KeyColumns* columns, std::size_t index) : columns_(columns), index_(index) {}
    Key operator*() const { return (*columns_)[index_]; }
    const_iterator& operator++() { ++index_; return *this; }
    const_iterator operator++(int) { auto copy = *this; ++index_; return copy; }
    bool operator==(const const_iterator& other) const { return index_ == other.index_; }

   private:
    const KeyColumns* columns_ = nullptr;
    std::size_t index_ = 0;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }
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
  KeyColumns keys;
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
