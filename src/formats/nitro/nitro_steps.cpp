#include "formats/nitro/nitro_steps.h"

#include <algorithm>

namespace animdex::nitro {

std::uint32_t regular_last_interp(int frame_count, int step) {
  return static_cast<std::uint32_t>((frame_count - 1) / step * step);
}

std::size_t sample_count(int frame_count, const Steps& steps) {
  if (steps.step() == 1) return static_cast<std::size_t>(frame_count);
  const auto last = static_cast<std::int64_t>(steps.last_interp);
  return static_cast<std::size_t>(last / steps.step() + 1 + std::max<std::int64_t>(0, frame_count - 1 - last));
}

std::vector<int> sample_frames(int frame_count, const Steps& steps) {
  std::vector<int> frames;
  const std::size_t count = sample_count(frame_count, steps);
  frames.reserve(count);
  if (steps.step() == 1) {
    for (int f = 0; f < frame_count; ++f) frames.push_back(f);
    return frames;
  }
  const auto last = static_cast<int>(steps.last_interp);
  for (int f = 0; f <= last && frames.size() < count; f += steps.step()) frames.push_back(f);
  for (int f = last + 1; frames.size() < count; ++f) frames.push_back(f);
  return frames;
}

StepRead step_read(const Steps& steps, int frame, std::size_t count) {
  const int step = steps.step();
  const auto last = static_cast<int>(steps.last_interp);
  const auto k = static_cast<std::size_t>(frame / step);
  StepRead read;
  if (step == 1) read = {static_cast<std::size_t>(frame), static_cast<std::size_t>(frame), 4};
  else if (frame % step == 0) read = {k, k, 4};
  else if (frame > last) {
    const auto index = static_cast<std::size_t>(last / step + (step == 2 ? 1 : frame % step));
    read = {index, index, 4};
  } else if (step == 2 || frame % 4 == 2) read = {k, k + 1, 2};
  else if (frame % 4 == 1) read = {k, k + 1, 3};
  else read = {k, k + 1, 1};
  if (count == 0) return {};
  read.first = std::min(read.first, count - 1);
  read.second = std::min(read.second, count - 1);
  return read;
}

}  // namespace animdex::nitro
