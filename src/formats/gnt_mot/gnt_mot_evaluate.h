#pragma once
// A GNT animation at any time (gnt-mot.md "Semantics"): each track's keys linearly interpolated,
// component by component, in seconds. TRANSLATE and SCALE values are offsets added to the model's
// bind pose and ROTATE is a direction vector plus a twist in degrees, so a pose gives the values as
// the animation holds them; the bind pose itself is in the character's model, not in the .mot.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "formats/gnt_mot/gnt_mot_types.h"

namespace animdex::gnt_mot {

// One bone's values at one time. A vector no track feeds stays empty (the bind pose); a time-only
// track (flags1 without 0x0200) feeds none.
struct BonePose {
  std::uint16_t bone_id = 0;
  std::optional<std::array<double, 3>> translate;  // T offset: x, y, z
  std::optional<std::array<double, 4>> rotate;     // R: direction x, y, z and twist w (degrees)
  std::optional<std::array<double, 3>> scale;      // S offset: x, y, z
};

// The value of one key column at `seconds`: a key's own value at its time (of two keys at one
// time, the later from that time on; the key is found in float32 seconds, the file's own unit),
// linear between keys, the first key's value before the first key and the last key's after the
// last (held: the game's own behaviour past the ends is unknown).
double interpolate(std::span<const float> key_times, std::span<const double> values, double seconds);

// A track's decoded values, column `component` (0..3 = x, y, z, w) per key.
std::vector<double> component_values(const BoneAnimation& track, std::size_t component);

// Every bone that has a track, by bone ID ascending. Tracks feed T (0x01), R (0x08) and S (0x02) by
// their track flags; of two tracks feeding one bone's vector, the later in header order wins.
std::vector<BonePose> evaluate(const GntAnimation& animation, double seconds);

}  // namespace animdex::gnt_mot
