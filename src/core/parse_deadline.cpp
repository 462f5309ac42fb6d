#include "core/parse_deadline.h"

#include <fmt/format.h>
#include <optional>

#include "core/parse_error.h"

namespace animdex {

namespace {
struct ThreadDeadline {
  std::optional<std::chrono::steady_clock::time_point> at;
  std::chrono::steady_clock::duration limit{};
};
thread_local ThreadDeadline current;
}  // namespace

ScopedParseDeadline::ScopedParseDeadline(std::chrono::steady_clock::duration limit)
    : had_previous_(current.at.has_value()), previous_(current.at.value_or(std::chrono::steady_clock::time_point{})) {
  current.at = std::chrono::steady_clock::now() + limit;
  current.limit = limit;
}

ScopedParseDeadline::~ScopedParseDeadline() {
  if (had_previous_) current.at = previous_;
  else current.at.reset();
}

void check_parse_deadline(std::uint64_t offset) {
  if (!current.at || std::chrono::steady_clock::now() <= *current.at) return;
  const double seconds = std::chrono::duration<double>(current.limit).count();
  fail_at(offset, fmt::format("the parse to finish within the {:g} s time limit (--parse-timeout)", seconds),
          "a parse still running");
}

}  // namespace animdex
