#include "reports/curve_panels.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace animdex::reports {

namespace {

// The largest absolute value of a line, and whether it changes at all (beyond float32 noise).
struct Extent {
  double magnitude = 0;
  bool varies = false;
};

Extent extent_of(const CurveLine& line) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const auto* values : {&line.values, &line.key_values})
    for (const double value : *values)
      if (std::isfinite(value)) {
        low = std::min(low, value);
        high = std::max(high, value);
      }
  if (low > high) return {};
  const double magnitude = std::max(std::abs(low), std::abs(high));
  return {magnitude, high - low > 1e-6 * std::max(1.0, magnitude)};
}

}  // namespace

std::string panel_of(const std::string& channel) {
  const auto dot = channel.find('.');
  return dot == std::string::npos ? channel : channel.substr(0, dot);
}

void split_outliers(std::vector<CurvePanel>& panels) {
  for (std::size_t p = 0; p < panels.size(); ++p) {
    auto& lines = panels[p].lines;
    if (lines.size() < 2) continue;
    std::vector<Extent> extents;
    std::vector<double> sizes;
    for (const auto& line : lines) {
      extents.push_back(extent_of(line));
      sizes.push_back(extents.back().magnitude);
    }
    std::vector<double> sorted = sizes;
    const std::size_t middle = (sorted.size() - 1) / 2;  // the lower median: of two, the smaller
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(middle), sorted.end());
    const double limit = 10 * std::max(sorted[middle], 1e-9);
    // Only worth a panel when what stays behind moves: constants are flat at any scale.
    bool others_vary = false;
    for (std::size_t i = 0; i < lines.size(); ++i) others_vary = others_vary || (sizes[i] <= limit && extents[i].varies);
    if (!others_vary || std::none_of(sizes.begin(), sizes.end(), [&](double size) { return size > limit; })) continue;
    std::vector<CurvePanel> own;
    std::vector<CurveLine> kept;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (sizes[i] > limit) own.push_back({lines[i].label, {std::move(lines[i])}});
      else kept.push_back(std::move(lines[i]));
    }
    lines = std::move(kept);
    panels.insert(panels.begin() + static_cast<std::ptrdiff_t>(p) + 1, std::make_move_iterator(own.begin()),
                  std::make_move_iterator(own.end()));
    p += own.size();
  }
}

}  // namespace animdex::reports
