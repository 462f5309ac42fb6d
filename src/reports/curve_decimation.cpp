#include "reports/curve_decimation.h"

#include <algorithm>
#include <cmath>

namespace animdex::reports {

namespace {

struct Point {
  double time, value;
  bool key;
};

bool finite(double time, double value) { return std::isfinite(time) && std::isfinite(value); }

// The samples' indexes to keep: per bucket of equal time, the lowest and the highest value, in
// time order; all of them when they fit the budget.
std::vector<std::size_t> kept_samples(const std::vector<double>& times, const std::vector<double>& values,
                                      std::size_t budget) {
  std::vector<std::size_t> finite_points;
  for (std::size_t i = 0; i < times.size() && i < values.size(); ++i)
    if (finite(times[i], values[i])) finite_points.push_back(i);
  if (finite_points.size() <= budget) return finite_points;
  const std::size_t buckets = std::max<std::size_t>(1, budget / 2);
  std::vector<std::size_t> kept;
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t from = finite_points.size() * b / buckets, to = finite_points.size() * (b + 1) / buckets;
    if (from >= to) continue;
    std::size_t low = finite_points[from], high = low;
    for (std::size_t i = from; i < to; ++i) {
      const std::size_t at = finite_points[i];
      if (values[at] < values[low]) low = at;
      if (values[at] > values[high]) high = at;
    }
    kept.push_back(std::min(low, high));
    if (low != high) kept.push_back(std::max(low, high));
  }
  // The line reaches both ends of the range, whatever the buckets chose.
  if (kept.front() != finite_points.front()) kept.insert(kept.begin(), finite_points.front());
  if (kept.back() != finite_points.back()) kept.push_back(finite_points.back());
  return kept;
}

// Keys and samples as one series in time order, for decimating them together.
Polyline merged(const std::vector<double>& sample_times, const std::vector<double>& sample_values,
                const std::vector<double>& key_times, const std::vector<double>& key_values) {
  std::vector<std::pair<double, double>> points;
  for (std::size_t i = 0; i < key_times.size() && i < key_values.size(); ++i) points.emplace_back(key_times[i], key_values[i]);
  for (std::size_t i = 0; i < sample_times.size() && i < sample_values.size(); ++i)
    points.emplace_back(sample_times[i], sample_values[i]);
  std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Polyline line;
  for (const auto& [time, value] : points) {
    line.times.push_back(time);
    line.values.push_back(value);
  }
  return line;
}

}  // namespace

Polyline decimated(const std::vector<double>& sample_times, const std::vector<double>& sample_values,
                   const std::vector<double>& key_times, const std::vector<double>& key_values,
                   std::size_t sample_budget, bool keep_every_key) {
  if (!keep_every_key) {
    const auto all = merged(sample_times, sample_values, key_times, key_values);
    Polyline line;
    for (const std::size_t i : kept_samples(all.times, all.values, std::max<std::size_t>(sample_budget, 2))) {
      line.times.push_back(all.times[i]);
      line.values.push_back(all.values[i]);
    }
    return line;
  }
  std::vector<Point> points;
  for (std::size_t i = 0; i < key_times.size() && i < key_values.size(); ++i)
    if (finite(key_times[i], key_values[i])) points.push_back({key_times[i], key_values[i], true});
  for (const std::size_t i : kept_samples(sample_times, sample_values, std::max<std::size_t>(sample_budget, 2)))
    points.push_back({sample_times[i], sample_values[i], false});
  // By time; at one time the key first, so the sample that repeats it is the one dropped below.
  std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    return a.time < b.time || (a.time == b.time && a.key && !b.key);
  });
  Polyline line;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].key && i > 0 && points[i - 1].key && points[i - 1].time == points[i].time) continue;
    line.times.push_back(points[i].time);
    line.values.push_back(points[i].value);
  }
  return line;
}

}  // namespace animdex::reports
