#include "formats/lightwave/lw_evaluate.h"

#include <algorithm>
#include <cmath>

namespace animdex::lightwave {

namespace {

// 2D Bezier handles store (time, value) offsets; their slope guards against a zero time offset.
double handle_slope_scale(double time_offset) { return std::fabs(time_offset) < 1e-5 ? 1e5 : 1.0 / time_offset; }

// Tangent leaving keys[i] towards keys[i + 1], by keys[i]'s shape.
double outgoing(const std::vector<Key>& keys, std::size_t i, bool use_previous) {
  const Key& k0 = keys[i];
  const Key& k1 = keys[i + 1];
  const double span = k1.time - k0.time;
  const double change = k1.value - k0.value;
  const bool has_previous = use_previous && i > 0;
  const double r = has_previous ? span / (k1.time - keys[i - 1].time) : 0.0;
  switch (k0.shape) {
    case kTcb: {
      const double tension = k0.params[0], continuity = k0.params[1], bias = k0.params[2];
      const double a = (1 - tension) * (1 + continuity) * (1 + bias);
      const double b = (1 - tension) * (1 - continuity) * (1 - bias);
      return has_previous ? r * (a * (k0.value - keys[i - 1].value) + b * change) : b * change;
    }
    case kLinear:
      return has_previous ? r * ((k0.value - keys[i - 1].value) + change) : change;
    case kHermite:
    case kBezier1D:
      return has_previous ? k0.params[4] * r : k0.params[4];
    case kBezier2D:
      return k0.params[3] * span * handle_slope_scale(k0.params[2]);
    default:  // stepped
      return 0.0;
  }
}

// Tangent arriving at keys[j] from keys[j - 1], by keys[j]'s shape.
double incoming(const std::vector<Key>& keys, std::size_t j, bool use_next) {
  const Key& k0 = keys[j - 1];
  const Key& k1 = keys[j];
  const double span = k1.time - k0.time;
  const double change = k1.value - k0.value;
  const bool has_next = use_next && j + 1 < keys.size();
  const double q = has_next ? span / (keys[j + 1].time - k0.time) : 0.0;
  switch (k1.shape) {
    case kTcb: {
      const double tension = k1.params[0], continuity = k1.params[1], bias = k1.params[2];
      const double a = (1 - tension) * (1 - continuity) * (1 + bias);
      const double b = (1 - tension) * (1 + continuity) * (1 - bias);
      return has_next ? q * (b * (keys[j + 1].value - k1.value) + a * change) : a * change;
    }
    case kLinear:
      return has_next ? q * ((keys[j + 1].value - k1.value) + change) : change;
    case kHermite:
    case kBezier1D:
      return has_next ? k1.params[3] * q : k1.params[3];
    case kBezier2D:
      return k1.params[1] * span * handle_slope_scale(k1.params[0]);
    default:
      return 0.0;
  }
}

double bezier(double p0, double p1, double p2, double p3, double u) {
  const double v = 1 - u;
  return v * v * v * p0 + 3 * v * v * u * p1 + 3 * v * u * u * p2 + u * u * u * p3;
}

// Value inside the span keys[i] -> keys[i + 1], by the shape of keys[i + 1].
double interpolate(const std::vector<Key>& keys, std::size_t i, double time) {
  const Key& k0 = keys[i];
  const Key& k1 = keys[i + 1];
  const double span = k1.time - k0.time;
  const double s = (time - k0.time) / span;
  switch (k1.shape) {
    case kLinear: return k0.value + s * (k1.value - k0.value);
    case kStepped: return k0.value;
    case kBezier2D: {
      const double x1 = k0.shape == kBezier2D ? k0.time + k0.params[2] : k0.time + span / 3;
      const double y1 = k0.shape == kBezier2D ? k0.value + k0.params[3] : k0.value + outgoing(keys, i, true) / 3;
      const double x2 = k1.time + k1.params[0];
      const double y2 = k1.value + k1.params[1];
      // x(u) is monotone for valid handles: bisect (the SDK stops at 1e-4; we go to 1e-12).
      double low = 0.0, high = 1.0;
      for (int step = 0; step < 60 && high - low > 1e-12; ++step) {
        const double mid = 0.5 * (low + high);
        if (bezier(k0.time, x1, x2, k1.time, mid) < time) low = mid;
        else high = mid;
      }
      return bezier(k0.value, y1, y2, k1.value, 0.5 * (low + high));
    }
    default: {  // TCB, Hermite, 1D Bezier: Hermite blend
      const double h2 = 3 * s * s - 2 * s * s * s;
      const double h1 = 1 - h2;
      const double h4 = s * s * s - s * s;
      const double h3 = h4 - s * s + s;  // s^3 - 2s^2 + s
      return h1 * k0.value + h2 * k1.value + h3 * outgoing(keys, i, true) + h4 * incoming(keys, i + 1, true);
    }
  }
}

}  // namespace

double incoming_tangent(const Channel& channel, std::size_t key) { return incoming(channel.keys, key, true); }
double outgoing_tangent(const Channel& channel, std::size_t key) { return outgoing(channel.keys, key, true); }

double evaluate(const Channel& channel, double time) {
  const auto& keys = channel.keys;
  if (keys.empty()) return 0.0;
  if (keys.size() == 1) return keys.front().value;  // a single key is a constant, whatever the behaviours
  const Key& first = keys.front();
  const Key& last = keys.back();
  const double length = last.time - first.time;
  double offset = 0.0;

  if (time < first.time || time > last.time) {
    const bool before = time < first.time;
    const int behavior = before ? channel.pre_behavior : channel.post_behavior;
    switch (behavior) {
      case kReset: return 0.0;
      case kConstant: return before ? first.value : last.value;
      case kLinearBehavior:
        if (before) return first.value + (time - first.time) * outgoing(keys, 0, false) / (keys[1].time - first.time);
        return last.value + (time - last.time) * incoming(keys, keys.size() - 1, false) /
                                (last.time - keys[keys.size() - 2].time);
      default: {  // repeat, oscillate, offset repeat
        if (length == 0.0) return first.value;
        const double cycles = std::floor((time - first.time) / length);
        time -= cycles * length;
        if (behavior == kOscillate && std::fmod(std::fabs(cycles), 2.0) == 1.0) time = first.time + last.time - time;
        if (behavior == kOffsetRepeat) offset = cycles * (last.value - first.value);
        time = std::clamp(time, first.time, last.time);
      }
    }
  }

  // The span with t0 <= time < t1 (a key's own time returns its value).
  const auto after = std::upper_bound(keys.begin(), keys.end(), time, [](double t, const Key& key) { return t < key.time; });
  if (after == keys.begin()) return first.value + offset;
  const std::size_t i = static_cast<std::size_t>(after - keys.begin()) - 1;
  if (keys[i].time == time || i + 1 == keys.size()) return keys[i].value + offset;
  return interpolate(keys, i, time) + offset;
}

}  // namespace animdex::lightwave
