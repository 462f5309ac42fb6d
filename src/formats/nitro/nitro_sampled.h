#pragma once
// What BTA0 and BMA0 share about their sampled arrays (nitro-models-and-anims.md sections 3 and 8):
// checking an array's step code and LAST_INTERP, bounding the samples a file may make the parser
// hold, the model's key frames, and the value at a frame (raw integers blended, then converted).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/nitro/nitro_steps.h"

namespace animdex::nitro {

// The array's steps, checked at `info_at` (the info word): step code 3 is invalid; a step-2/4 array
// must stop interpolating before the last frame (else the array would describe frames past the end);
// a step-1 LAST_INTERP other than numFrame is only a warning (`what` names the array in it).
Steps checked_array_steps(std::uint32_t step_code, std::uint32_t last_interp, int frame_count,
                          std::uint64_t info_at, std::string_view what, std::vector<std::string>& warnings);

// Step code 3 is invalid in any info word, constant or not.
void check_step_code(std::uint32_t step_code, std::uint64_t info_at, std::string_view what);

// Samples one file may make the parser read: 8 per byte of the file (arrays may overlap, so a small
// file could otherwise make millions), charged before each array is read.
class SampleBudget {
 public:
  explicit SampleBudget(std::size_t file_size) : limit_(8 * static_cast<std::uint64_t>(file_size)) {}
  // Charges `count` samples read because of the field at `field_at` (fails there when over).
  void charge(std::uint64_t count, std::uint64_t field_at);

 private:
  std::uint64_t limit_, read_ = 0;
};

// Frames with a sample in any of the animated arrays (their steps), ascending, once each; frame 0
// alone when there is none (every value of the track is constant).
std::vector<int> union_sample_frames(std::span<const Steps> animated, int frame_count);

// The raw integer an array gives at `frame`: the runtime's floor blend of the samples it reads.
template <typename Sample>
std::int64_t sampled_at(std::span<const Sample> samples, const Steps& steps, int frame) {
  if (samples.empty()) return 0;
  const StepRead read = step_read(steps, frame, samples.size());
  return blend(samples[read.first], samples[read.second], read);
}

}  // namespace animdex::nitro
