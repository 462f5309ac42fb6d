#include "core/parse_budget.h"

#include <fmt/format.h>

#include "core/parse_error.h"

namespace animdex {

namespace {
struct ThreadBudget {
  bool active = false;
  std::uint64_t limit = 0;
  std::uint64_t charged = 0;
};
thread_local ThreadBudget current;
}  // namespace

ScopedParseBudget::ScopedParseBudget(std::uint64_t bytes)
    : previous_limit_(current.limit), previous_charged_(current.charged), had_previous_(current.active) {
  current = {true, bytes, 0};
}

ScopedParseBudget::~ScopedParseBudget() { current = {had_previous_, previous_limit_, previous_charged_}; }

std::uint64_t ScopedParseBudget::charged() const { return current.charged; }

void charge_parse_memory(std::uint64_t count, std::uint64_t bytes_each, std::uint64_t offset, std::string_view what) {
  if (!current.active) return;
  const std::uint64_t left = current.limit - current.charged;
  // Overflow-safe: count * bytes_each > left without computing the product first.
  if (bytes_each != 0 && count > left / bytes_each)
    fail_at(offset,
            fmt::format("{} that fit the {} MiB a file may decode to ({} MiB used so far)", what,
                        current.limit >> 20, current.charged >> 20),
            fmt::format("{} of {} bytes each", count, bytes_each));
  current.charged += count * bytes_each;
}

}  // namespace animdex
