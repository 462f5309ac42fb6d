#pragma once
// Slots of one size carved on demand from one reserved mapping that the kernel may back with
// 2 MiB pages: where SQLite's page cache takes its pages while `index` runs (sqlite_memory.h).
// Reserving touches nothing, so a run uses only the memory of the slots it has taken; a slot given
// back is the next one taken.
#include <cstddef>
#include <mutex>

namespace animdex {

class PageArena {
 public:
  // Reserves `slots` slots of `slot_bytes` (rounded up to 8) and advises them for 2 MiB pages.
  // If the reservation fails the arena holds no slots and take() always says so.
  PageArena(std::size_t slot_bytes, std::size_t slots);
  ~PageArena();
  PageArena(const PageArena&) = delete;
  PageArena& operator=(const PageArena&) = delete;

  // A free slot of slot_bytes(), 8-byte aligned; nullptr when every slot is in use.
  void* take();
  // Returns a slot take() gave; `slot` must be one (holds(slot)).
  void give_back(void* slot);
  // Whether `pointer` lies in the reserved slots. Safe from any thread without locking.
  bool holds(const void* pointer) const;

  std::size_t slot_bytes() const { return slot_bytes_; }
  std::size_t capacity() const { return slots_; }
  std::size_t in_use() const;
  // The most slots ever in use at once.
  std::size_t high_water() const;

 private:
  struct FreeSlot {
    FreeSlot* next;
  };

  const std::size_t slot_bytes_;
  std::size_t slots_ = 0;
  void* mapping_ = nullptr;
  std::size_t mapping_bytes_ = 0;
  char* first_ = nullptr;  // the first slot; slots run contiguously from here
  // One lock for take and give_back. SQLite calls its allocator outside its own page-cache lock, so
  // every connection's page allocations meet here; a cache recycles its pages once it is full, so
  // they are few (one per page the cache grows by), unlike the allocation statistics' lock on
  // every SQLite allocation that `index` turns off (db/database.h).
  mutable std::mutex mutex_;
  std::size_t carved_ = 0;  // slots below this index have been handed out at least once
  FreeSlot* free_ = nullptr;
  std::size_t in_use_ = 0;
  std::size_t high_water_ = 0;
};

}  // namespace animdex
