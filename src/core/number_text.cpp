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

}  // namespace

std::string shortest_text(double value) {
  char buffer[400];  // fixed notation of a large double runs to 300+ digits; we only use it below 1e21
  auto written = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string_view scientific(buffer, static_cast<std::size_t>(written.ptr - buffer));
  const auto e = scientific.find('e');
  int exponent = 0;
  if (e != std::string_view::npos) std::from_chars(scientific.data() + e + 1 + (scientific[e + 1] == '+'), written.ptr, exponent);
  // As JavaScript prints numbers: plain decimals from 1e-7 to 1e21 (0.0005, 1859874), else 1.5e-08.
  if (std::isfinite(value) && exponent >= -7 && exponent < 21)
    written = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  return std::string(buffer, written.ptr);
}

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
  return shortest_text(as_stored(value));
}

double as_computed(double value) {
  if (value == 0) return 0.0;  // -0 from arithmetic (a sine of 0) means 0
  if (!std::isfinite(value) || float32_exact(value)) return as_stored(value);
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 9);
  double rounded = value;
  std::from_chars(buffer, written.ptr, rounded);
  return rounded;
}

double shown_as(double value, Precision precision) {
  switch (precision) {
    case Precision::float32:
      if (!std::isfinite(value) || std::fabs(value) > std::numeric_limits<float>::max()) return value;
      return value == 0 ? 0.0 : as_stored(static_cast<double>(static_cast<float>(value)));
    case Precision::exact: return value == 0 ? 0.0 : value;
    case Precision::fixed_point: {
      const double steps = value * 4096.0;
      if (std::isfinite(steps) && steps == std::round(steps)) return value == 0 ? 0.0 : value;
      return as_computed(value);
    }
    case Precision::computed: return as_computed(value);
  }
  return value;
}

double exact_of_stored(double stored) {
  if (!std::isfinite(stored) || std::fabs(stored) > std::numeric_limits<float>::max()) return stored;
  const double candidate = static_cast<double>(static_cast<float>(stored));
  return as_stored(candidate) == stored ? candidate : stored;
}

}  // namespace animdex
