#pragma once
// Sampled value arrays of BTA0 and BMA0 (nitro-models-and-anims.md section 3, the runtime logic of
// BCA0): a step code (every frame, every 2nd, every 4th) and LAST_INTERP, after which every frame
// is stored. Frames between two samples average the raw integers with floor (arithmetic shifts).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace animdex::nitro {

struct Steps {
  std::uint32_t step_code = 0;    // 0, 1, 2 (3 is invalid)
  std::uint32_t last_interp = 0;  // LAST_INTERP
  int step() const { return 1 << step_code; }
};

// The LAST_INTERP the converter stores: the last multiple of the step below numFrame.
std::uint32_t regular_last_interp(int frame_count, int step);

// Samples the array holds: numFrame for step 1; else L/s + 1 + max(0, numFrame-1-L). At the regular
// LAST_INTERP this is nsbca.md's ceil(numFrame/s) + (numFrame-1) % s, by which BCA0 sizes its arrays.
std::size_t sample_count(int frame_count, const Steps& steps);

// The frame each sample belongs to: 0, s, 2s, ... up to L, then every frame after L.
std::vector<int> sample_frames(int frame_count, const Steps& steps);

// Which samples frame f reads and how: value = (weight_first * a[first] + (4 - weight_first) *
// a[second]) >> 2 on the raw integers. Indices are clamped to the array (a hostile LAST_INTERP).
struct StepRead {
  std::size_t first = 0, second = 0;
  int weight_first = 4;  // in quarters
};
StepRead step_read(const Steps& steps, int frame, std::size_t sample_count);

inline std::int64_t blend(std::int64_t first, std::int64_t second, const StepRead& read) {
  return (read.weight_first * first + (4 - read.weight_first) * second) >> 2;  // floor, as the runtime shifts
}

}  // namespace animdex::nitro
