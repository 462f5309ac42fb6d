#include "indexer/flight_budget.h"

#include <algorithm>

namespace animdex {

FlightBudget::FlightBudget(std::uint64_t waiting_bytes, std::size_t parse_slots)
    : waiting_limit_(waiting_bytes), parse_slots_(std::max<std::size_t>(parse_slots, 1)) {}

void FlightBudget::wait_for_room() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return abandoned_ || files_ == 0 || held_ < waiting_limit_; });
}

void FlightBudget::enter(std::uint64_t bytes) {
  const std::lock_guard lock(mutex_);
  ++files_;
  held_ += bytes;
}

void FlightBudget::begin_parse() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return abandoned_ || parsing_ < parse_slots_; });
  ++parsing_;
}

void FlightBudget::end_parse() {
  {
    const std::lock_guard lock(mutex_);
    --parsing_;
  }
  changed_.notify_all();
}

void FlightBudget::change(std::uint64_t before, std::uint64_t after) {
  {
    const std::lock_guard lock(mutex_);
    held_ = held_ - before + after;
  }
  changed_.notify_all();
}

void FlightBudget::leave(std::uint64_t bytes) {
  {
    const std::lock_guard lock(mutex_);
    --files_;
    held_ -= bytes;
  }
  changed_.notify_all();
}

void FlightBudget::abandon() {
  {
    const std::lock_guard lock(mutex_);
    abandoned_ = true;
  }
  changed_.notify_all();
}

}  // namespace animdex
