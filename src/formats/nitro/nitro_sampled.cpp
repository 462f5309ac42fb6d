#include "formats/nitro/nitro_sampled.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/parse_error.h"

namespace animdex::nitro {

void check_step_code(std::uint32_t step_code, std::uint64_t info_at, std::string_view what) {
  if (step_code == 3) fail_at(info_at, fmt::format("{}: step 1, 2 or 4 (info bits 30-31 = 0..2)", what), "3");
}

Steps checked_array_steps(std::uint32_t step_code, std::uint32_t last_interp, int frame_count,
                          std::uint64_t info_at, std::string_view what, std::vector<std::string>& warnings) {
  check_step_code(step_code, info_at, what);
  const Steps steps{step_code, last_interp};
  if (steps.step() > 1 && last_interp >= static_cast<std::uint32_t>(frame_count))
    fail_at(info_at,
            fmt::format("{}: LAST_INTERP below the frame count {} for a step-{} array", what, frame_count,
                        steps.step()),
            std::to_string(last_interp));
  // The converter stores the last multiple of the step; another value leaves samples no frame reads.
  const std::uint32_t expected = regular_last_interp(frame_count, steps.step());
  if (steps.step() > 1 && last_interp != expected)
    warnings.push_back(fmt::format("{}: LAST_INTERP {} (expected {} for step {} over {} frames)", what, last_interp,
                                   expected, steps.step(), frame_count));
  if (steps.step() == 1 && last_interp != static_cast<std::uint32_t>(frame_count))
    warnings.push_back(fmt::format("{}: LAST_INTERP {} in a step-1 array of {} frames (numFrame in every known file)",
                                   what, last_interp, frame_count));
  return steps;
}

void SampleBudget::charge(std::uint64_t count, std::uint64_t field_at) {
  read_ += count;
  if (read_ > limit_)
    fail_at(field_at, fmt::format("at most {} samples in all (8 per byte of the file)", limit_),
            "arrays shared by too many values");
}

std::vector<int> union_sample_frames(std::span<const Steps> animated, int frame_count) {
  std::vector<int> frames;
  for (const auto& steps : animated) {
    const auto sampled = sample_frames(frame_count, steps);
    frames.insert(frames.end(), sampled.begin(), sampled.end());
  }
  if (frames.empty()) return {0};
  std::sort(frames.begin(), frames.end());
  frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
  return frames;
}

}  // namespace animdex::nitro
