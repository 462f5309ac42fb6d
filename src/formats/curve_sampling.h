#pragma once
// What every format's `curves` capability shares: the sample times of a bake, and the limit that
// keeps a hostile end time from asking for billions of samples.
#include <optional>
#include <string>
#include <vector>

#include "formats/capabilities.h"

namespace animdex {

// Samples per channel a bake may ask for (10 minutes at 60 per second is 36,000).
inline constexpr double kMaxSamplesPerChannel = 1'000'000;

// start, start + 1/rate, ... up to end (inclusive within rounding), or nullopt when that is more
// than kMaxSamplesPerChannel or the range is not finite.
std::optional<std::vector<double>> sample_times(double start, double end, double samples_per_second);

// Samples one animation's channels may hold in all (a time and a value each: 128 MiB): `export`
// and `plot` hold one animation at a time, so this bounds their memory whatever the rate
// (`export --gltf` keeps every animation of the file it writes: it has no total cap yet).
inline constexpr double kMaxSamplesPerAnimation = 8'000'000;

// The usage error when `channels` channels of `samples_per_channel` samples each pass
// kMaxSamplesPerAnimation; nullopt when they fit. Called before the samples are made.
std::optional<CapabilityError> check_animation_samples(std::size_t samples_per_channel, std::size_t channels,
                                                       double samples_per_second);

// The usage error for a range sample_times refused.
CapabilityError too_many_samples(double start, double end, double samples_per_second);

// Hands one animation's curves to request.each where set, else adds them to `all`.
inline void deliver(const CurveRequest& request, std::vector<AnimationCurves>& all, AnimationCurves&& curves) {
  if (request.each) request.each(std::move(curves));
  else all.push_back(std::move(curves));
}

// "0x0140"-style and decimal text as a non-negative integer; nullopt otherwise.
std::optional<long long> parse_slot_number(const std::string& text);

}  // namespace animdex
