#include "indexer/flight_budget.h"

#include <chrono>
#include <oneapi/tbb/task_group.h>

namespace animdex {

FlightBudget::FlightBudget(std::uint64_t waiting_bytes) : waiting_limit_(waiting_bytes) {}

bool FlightBudget::wait_for_room() {
  std::unique_lock lock(mutex_);
  const auto room = [&] { return abandoned_ || files_ == 0 || held_ < waiting_limit_; };
  // A pipeline cancelled from outside its stages (TBB's own allocation failing) runs no stage that
  // would abandon the budget: look now and then.
  while (!changed_.wait_for(lock, std::chrono::milliseconds(50), room))
    if (tbb::is_current_task_group_canceling()) return false;
  return !abandoned_;
}

void FlightBudget::enter(std::uint64_t bytes) {
  const std::lock_guard lock(mutex_);
  ++files_;
  held_ += bytes;
}

void FlightBudget::parsed(std::uint64_t before, std::uint64_t after) {
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
