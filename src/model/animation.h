#pragma once
// The common animation model every format parser produces: plain structs (ozz-style) whose keys and
// splines are two small column classes over one buffer each (KeyColumns, SplineColumns; the arena
// and fill contract is written once in model/word_columns.h). Only what every format has, plus four
// fields one format needs that are documented as such where they are declared (play_speed,
// node_name, linear_flag, behaviors): they are columns of the common tables since those tables'
// first versions, and moving them would change stored rows. The rules are written here and checked
// by model::validate(); what else only one format has travels as rows of its own tables
// (model/format_rows.h).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/format_rows.h"
#include "model/word_columns.h"

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
// per key, and each other column (frame; values x, y, z, w) either one entry per key or absent, as
// the track carries it. The columns share one buffer (the reals, then the frames), so a track costs
// one allocation whatever it carries: a GNT track has about nine keys, so allocations, not keys,
// were its parse's cost. Rules: finite numbers, times in non-decreasing order.
// Values are doubles holding exactly what the file stored (a float32 widens exactly); the
// database's encoder (db/key_blob.h) narrows each column back to the narrowest exact width.
inline constexpr std::size_t kMaxTrackKeys = std::size_t{1} << 24;  // rule: keys per track, far above any budget
// What one key can cost in KeyColumns (a time, a frame, four values): parsers charge it to their
// memory budget before reading keys.
inline constexpr std::size_t kBytesPerKey = 5 * sizeof(double) + sizeof(std::int64_t);

class KeyColumns {
 public:
  // Which columns a track carries besides `time`: a set of these bits.
  static constexpr unsigned kFrame = 1, kX = 2, kY = 4, kZ = 8, kW = 16;
  static constexpr unsigned kXYZ = kX | kY | kZ, kXYZW = kXYZ | kW;

  KeyColumns() = default;
  // `key_count` keys in `columns`: parsers size once, then fill in place. Zero keys carry no
  // columns. `arena` and `fill`: model/word_columns.h (ColumnArena, ColumnFill).
  KeyColumns(std::size_t key_count, unsigned columns, const std::shared_ptr<ColumnArena>& arena = nullptr,
             ColumnFill fill = ColumnFill::zeroed);
  KeyColumns(const KeyColumns&) = default;
  KeyColumns& operator=(const KeyColumns&) = default;
  // A moved-from track is empty (its counts go with its buffer), as a moved-from vector was.
  KeyColumns(KeyColumns&& other) noexcept;
  KeyColumns& operator=(KeyColumns&& other) noexcept;

  std::size_t size() const noexcept { return key_count_; }
  bool empty() const noexcept { return key_count_ == 0; }
  unsigned columns() const noexcept { return columns_; }
  bool has(unsigned column) const noexcept { return (columns_ & column) == column && column != 0; }

  std::span<double> time() noexcept { return real_column(0); }
  std::span<const double> time() const noexcept { return real_column(0); }
  std::span<std::int64_t> frame() noexcept { return {frames(), has(kFrame) ? key_count_ : 0}; }
  std::span<const std::int64_t> frame() const noexcept { return {frames(), has(kFrame) ? key_count_ : 0}; }
  // Value column 0..3 (x, y, z, w); empty when the track does not carry it.
  std::span<double> value(std::size_t index) noexcept {
    return index < 4 && has(kX << index) ? real_column(slot_of_value(index)) : std::span<double>();
  }
  std::span<const double> value(std::size_t index) const noexcept {
    return index < 4 && has(kX << index) ? real_column(slot_of_value(index)) : std::span<const double>();
  }
  std::span<double> x() noexcept { return value(0); }
  std::span<const double> x() const noexcept { return value(0); }
  std::span<double> y() noexcept { return value(1); }
  std::span<const double> y() const noexcept { return value(1); }
  std::span<double> z() noexcept { return value(2); }
  std::span<const double> z() const noexcept { return value(2); }
  std::span<double> w() noexcept { return value(3); }
  std::span<const double> w() const noexcept { return value(3); }

  void reserve(std::size_t key_count);
  // Appends one key. The first key of an empty track decides the columns; a later key carrying
  // other columns is a caller's error (std::invalid_argument), as a column per key is the rule.
  void push_back(const Key& key);
  Key operator[](std::size_t index) const;
  Key front() const { return (*this)[0]; }
  Key back() const { return (*this)[size() - 1]; }
  bool operator==(const KeyColumns& other) const;

  using const_iterator = ByValueIterator<KeyColumns, Key>;
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

 private:
  static unsigned columns_of(const Key& key) noexcept;
  // Value columns present below `mask` (x, y, z, w bits), by table: the build targets no popcount instruction.
  static std::size_t values_in(unsigned mask) noexcept {
    static constexpr std::uint8_t kCount[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return kCount[(mask & kXYZW) >> 1];
  }
  // Slot of a real column in the buffer: 0 is time, then the present values in x, y, z, w order.
  std::size_t slot_of_value(std::size_t index) const noexcept { return 1 + values_in(columns_ & ((kX << index) - 1)); }
  std::size_t real_columns() const noexcept { return 1 + values_in(columns_); }
  // The frames follow the real columns.
  std::int64_t* frames() const noexcept { return storage_.integers(real_columns()); }
  std::span<double> real_column(std::size_t slot) noexcept { return {storage_.reals(slot), key_count_}; }
  std::span<const double> real_column(std::size_t slot) const noexcept { return {storage_.reals(slot), key_count_}; }
  std::size_t word_columns() const noexcept { return real_columns() + (has(kFrame) ? 1 : 0); }
  void grow(std::size_t capacity);

  std::size_t key_count_ = 0;
  unsigned columns_ = 0;
  WordColumns storage_;  // time, then each present value column, then the frames
};

// The shape of the span that ends at a key and its parameters (p1..p6), for curve formats
// (LightWave; KH2 curves as shapes 1, 3, 4 with tangents in p1, p2). Rule: finite parameters.
struct KeySpline {
  int shape = 0;
  std::optional<int> linear_flag;  // LightWave v1 only: the key line's linear flag, kept so its writer gives
                                   // the file back byte for byte (key_splines.linear_flag)
  std::array<double, 6> params{};
};

// A track's splines as flat columns, one entry per key (struct of arrays, one buffer): the shape,
// the linear flag where the track carries them (LightWave v1: on every key or none), and the
// parameters p1..pN the track carries (N = parameter_count(), at most 6; the rest are 0). KH2
// carries two (tangents), so a key costs 24 bytes, not a 64-byte KeySpline.
class SplineColumns {
 public:
  static constexpr std::size_t kMaxParameters = 6;

  SplineColumns() = default;
  // `key_count` splines: parsers size once, then fill in place. `arena` and `fill`:
  // model/word_columns.h.
  SplineColumns(std::size_t key_count, std::size_t parameter_count, bool linear_flags,
                const std::shared_ptr<ColumnArena>& arena = nullptr, ColumnFill fill = ColumnFill::zeroed);
  SplineColumns(const SplineColumns&) = default;
  SplineColumns& operator=(const SplineColumns&) = default;
  SplineColumns(SplineColumns&& other) noexcept;
  SplineColumns& operator=(SplineColumns&& other) noexcept;

  std::size_t size() const noexcept { return key_count_; }
  bool empty() const noexcept { return key_count_ == 0; }
  std::size_t parameter_count() const noexcept { return parameter_count_; }
  bool has_linear_flags() const noexcept { return linear_flags_; }

  std::span<std::int64_t> shape() noexcept { return {storage_.integers(0), key_count_}; }
  std::span<const std::int64_t> shape() const noexcept { return {storage_.integers(0), key_count_}; }
  // Empty when the track carries no linear flags.
  std::span<std::int64_t> linear_flag() noexcept {
    return linear_flags_ ? std::span<std::int64_t>(storage_.integers(1), key_count_) : std::span<std::int64_t>();
  }
  std::span<const std::int64_t> linear_flag() const noexcept {
    return linear_flags_ ? std::span<const std::int64_t>(storage_.integers(1), key_count_)
                         : std::span<const std::int64_t>();
  }
  // Parameter 0..5 (p1..p6); empty past parameter_count().
  std::span<double> parameter(std::size_t index) noexcept {
    return index < parameter_count_ ? std::span<double>(storage_.reals(first_parameter() + index), key_count_)
                                    : std::span<double>();
  }
  std::span<const double> parameter(std::size_t index) const noexcept {
    return index < parameter_count_ ? std::span<const double>(storage_.reals(first_parameter() + index), key_count_)
                                    : std::span<const double>();
  }

  // Appends one spline. The first decides whether the track carries linear flags; a later one that
  // differs is a caller's error (std::invalid_argument). Parameters widen to the last non-zero one.
  void push_back(const KeySpline& spline);
  KeySpline operator[](std::size_t index) const;
  void clear() noexcept { *this = SplineColumns(); }
  bool operator==(const SplineColumns& other) const;

  using const_iterator = ByValueIterator<SplineColumns, KeySpline>;
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

 private:
  std::size_t first_parameter() const noexcept { return linear_flags_ ? 2 : 1; }
  std::size_t word_columns() const noexcept { return first_parameter() + parameter_count_; }

  std::size_t key_count_ = 0;
  std::size_t parameter_count_ = 0;
  bool linear_flags_ = false;
  WordColumns storage_;  // shapes, then the linear flags if carried, then p1..pN
};

// What a curve does before its first and after its last key (LightWave behaviour codes 0..5).
struct CurveBehaviors {
  int pre = 1;
  int post = 1;
};

// The keys that drive one bone (or node, or channel).
struct BoneTrack {
  // User-provided, so that a value-initialised track (`tracks.emplace_back()`) is not zero-filled
  // whole before its members' own initialisers run: that fill was a fifth of GNT's walk.
  BoneTrack() noexcept {}

  std::optional<std::int64_t> bone_id;  // the format's bone/node number, >= 0 (GNT 0xFFFF is 65535)
  std::string node_name;                // Nitro only: the name the file itself gives that node (BTA0/BTP0/BMA0
                                        // material names; other formats name no node in the file); empty when
                                        // none. A game's reference name wins (bone_tracks.bone_name).
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
  SplineColumns splines;                // rule: empty, or one per key
  std::optional<CurveBehaviors> behaviors;  // LightWave only: the envelope's pre/post behaviours
                                            // (table track_behaviors)
};

// Whether a track with this `value_encoding` holds float32s (GNT, KH2; NSBCA rotations, quaternions
// computed from the fixed-point matrix and kept as float32), whose keys are
// stored and shown under the float32 rule (core/number_text.h as_stored), rather than numbers that
// are exact as they are (DS 1/4096 fixed point, LightWave's decimal text, DS integers). Decided by
// the encoding's name so that the writer and SQL's key tables, which read it back from
// bone_tracks.value_encoding, decide alike.
bool float32_values(std::string_view value_encoding);

struct Animation {
  std::optional<std::int64_t> slot;       // position in its container (GNT: slot = animation ID)
  std::optional<std::int64_t> motion_id;  // the ID the game asks for
  std::string name;                       // the format's own name, if any (purpose names are joined later)
  std::optional<double> play_speed;       // GNT only: the GNTA header's play speed (finite; animations.play_speed)
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
