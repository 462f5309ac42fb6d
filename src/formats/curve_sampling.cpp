#include "formats/curve_sampling.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>

#include "core/number_text.h"

namespace animdex {

std::optional<std::vector<double>> sample_times(double start, double end, double samples_per_second) {
  if (!std::isfinite(start) || !std::isfinite(end) || !(samples_per_second > 0) || end < start) return std::nullopt;
  const double count = std::floor((end - start) * samples_per_second + 1e-9) + 1;
  if (!(count <= kMaxSamplesPerChannel)) return std::nullopt;
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i)
    times.push_back(start + static_cast<double>(i) / samples_per_second);
  return times;
}

CapabilityError too_many_samples(double start, double end, double samples_per_second) {
  // The times as the outputs print them (an end time from a float32 file reads 1.35, not
  // 1.350000023841858).
  return usage_error(fmt::format("{} to {} s at {} samples per second is more than {} samples per channel; lower the rate",
                                 number_text(as_computed(start)), number_text(as_computed(end)),
                                 number_text(samples_per_second), kMaxSamplesPerChannel));
}

std::optional<CapabilityError> check_animation_samples(std::size_t samples_per_channel, std::size_t channels,
                                                       double samples_per_second) {
  const double total = static_cast<double>(samples_per_channel) * static_cast<double>(channels);
  if (total <= kMaxSamplesPerAnimation) return std::nullopt;
  return usage_error(fmt::format("at {} samples per second its {} channels make {:.0f} samples, more than the {:.0f} "
                                 "one animation may hold; lower the rate",
                                 number_text(samples_per_second), channels, total, kMaxSamplesPerAnimation));
}

std::optional<long long> parse_slot_number(const std::string& text) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const char* begin = text.data() + (hex ? 2 : 0);
  const char* end = text.data() + text.size();
  long long value = 0;
  const auto [stop, error] = std::from_chars(begin, end, value, hex ? 16 : 10);
  if (error != std::errc() || stop != end || begin == end || value < 0) return std::nullopt;
  return value;
}

}  // namespace animdex
