#include "core/number_text.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace animdex {

namespace {

bool float32_exact(double value) {
  if (!std::isfinite(value) || std::fabs(value) > std::numeric_limits<float>::max()) return false;
  return static_cast<double>(static_cast<float>(value)) == value;
}

std::string shortest(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general);
  return std::string(buffer, result.ptr);
}

}  // namespace

double as_stored(double value) {
  if (!float32_exact(value)) return value;
  // The shortest decimal that names this float32 among float32s, read back as a double.
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value));
  double decimal = value;
  std::from_chars(buffer, written.ptr, decimal);
  return decimal;
}

std::string number_text(double value) {
  if (std::isnan(value)) return "NaN";
  return shortest(as_stored(value));
}

double as_computed(double value) {
  if (!std::isfinite(value) || float32_exact(value)) return as_stored(value);
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 9);
  double rounded = value;
  std::from_chars(buffer, written.ptr, rounded);
  return rounded;
}

std::string computed_text(double value) {
  if (std::isnan(value)) return "NaN";
  return shortest(as_computed(value));
}

}  // namespace animdex
