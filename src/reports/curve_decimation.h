#pragma once
// Fewer points for a curve's line, so a page of hundreds of curves stays small: a chart is a few
// hundred pixels wide, so a few hundred points per line show all it can. Keys are never dropped:
// they are where the file says the curve goes.
#include <cstddef>
#include <vector>

namespace animdex::reports {

struct Polyline {
  std::vector<double> times, values;  // in time order
};

// Every key, and at most `sample_budget` of the samples: the time range is cut into
// sample_budget / 2 buckets and each keeps its lowest and highest sample (in time order), so peaks
// and dips survive. Non-finite points are left out. Keys and samples merge by time; a sample at a
// key's time gives way to the key. With `keep_every_key` false (a page of thousands of curves
// with a key on every frame), keys count as samples: at most `sample_budget` points in all.
Polyline decimated(const std::vector<double>& sample_times, const std::vector<double>& sample_values,
                   const std::vector<double>& key_times, const std::vector<double>& key_values,
                   std::size_t sample_budget = 150, bool keep_every_key = true);

}  // namespace animdex::reports
