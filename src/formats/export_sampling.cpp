#include "formats/export_sampling.h"

#include <cmath>

#include <fmt/format.h>

#include "formats/curve_sampling.h"

namespace animdex {

Answer<std::vector<double>> export_times(const ExportRequest& request, double first, double last, double own_rate) {
  const double rate = request.rate.value_or(own_rate);
  if (!(rate > 0) || !std::isfinite(rate)) return usage_error(fmt::format("the rate must be positive (got {})", rate));
  if (request.frame || request.seconds) {
    const double seconds = request.seconds ? *request.seconds : *request.frame / rate;
    // A frame a hair outside the range by rounding still names the end frame.
    if (!std::isfinite(seconds) || seconds < first - 1e-9 || seconds > last + 1e-9)
      return usage_error(fmt::format("{} s (frame {} at {} per second) is outside the animation's {} to {} s",
                                     seconds, seconds * rate, rate, first, last));
    return std::vector<double>{seconds};
  }
  auto times = sample_times(first, last, rate);
  if (!times) return too_many_samples(first, last, rate);
  return std::move(*times);
}

std::optional<CapabilityError> check_export_size(std::size_t frames, std::size_t joints, double rate) {
  // A transform is ten numbers: about five of the budget's (time, value) samples.
  return check_animation_samples(frames, joints * 5, rate);
}

std::string joined_names(const std::vector<std::string>& names, std::size_t shown) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > shown) text += fmt::format(" and {} more", names.size() - shown);
  return text;
}

}  // namespace animdex
