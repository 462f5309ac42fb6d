#pragma once
// Value-or-error return type for the parse layer (std::expected is C++23).
#include <utility>
#include <variant>

#include "core/parse_error.h"

namespace animdex {

template <typename T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}                // NOLINT: implicit by design
  Result(ParseError error) : state_(std::move(error)) {}       // NOLINT: implicit by design

  bool ok() const noexcept { return std::holds_alternative<T>(state_); }
  explicit operator bool() const noexcept { return ok(); }

  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const ParseError& error() const { return std::get<ParseError>(state_); }

 private:
  std::variant<T, ParseError> state_;
};

// Runs `body` (which may throw ParseFailure) and turns the outcome into a Result.
template <typename T, typename Body>
Result<T> catch_parse_failure(Body&& body) {
  try {
    return Result<T>(body());
  } catch (const ParseFailure& failure) {
    return Result<T>(failure.error());
  }
}

}  // namespace animdex
