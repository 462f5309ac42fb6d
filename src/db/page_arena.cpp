#include "db/page_arena.h"

#include <sys/mman.h>

#include <cstdint>

namespace animdex {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

}  // namespace

PageArena::PageArena(std::size_t slot_bytes, std::size_t slots) : slot_bytes_((slot_bytes + 7) & ~std::size_t{7}) {
  if (slot_bytes_ == 0 || slots == 0) return;
  // One huge page more than the slots need, so the slots can start on a 2 MiB boundary and the
  // kernel can back all of them with whole huge pages.
  mapping_bytes_ = slot_bytes_ * slots + kHugePage;
  void* mapping = ::mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                         -1, 0);
  if (mapping == MAP_FAILED) {
    mapping_bytes_ = 0;
    return;
  }
  mapping_ = mapping;
  const auto address = reinterpret_cast<std::uintptr_t>(mapping);
  first_ = reinterpret_cast<char*>((address + kHugePage - 1) & ~(kHugePage - 1));
  ::madvise(first_, slot_bytes_ * slots, MADV_HUGEPAGE);  // refused where the kernel has none: 4 KiB pages
  slots_ = slots;
}

PageArena::~PageArena() {
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_bytes_);
}

void* PageArena::take() {
  const std::lock_guard lock(mutex_);
  void* slot = nullptr;
  if (free_ != nullptr) {
    slot = free_;
    free_ = free_->next;
  } else if (carved_ < slots_) {
    slot = first_ + carved_ * slot_bytes_;  // first touched by its caller, not here
    ++carved_;
  } else {
    return nullptr;
  }
  ++in_use_;
  if (in_use_ > high_water_) high_water_ = in_use_;
  return slot;
}

void PageArena::give_back(void* slot) {
  const std::lock_guard lock(mutex_);
  auto* freed = static_cast<FreeSlot*>(slot);
  freed->next = free_;
  free_ = freed;
  --in_use_;
}

bool PageArena::holds(const void* pointer) const {
  const auto* byte = static_cast<const char*>(pointer);
  return slots_ > 0 && byte >= first_ && byte < first_ + slots_ * slot_bytes_;
}

std::size_t PageArena::in_use() const {
  const std::lock_guard lock(mutex_);
  return in_use_;
}

std::size_t PageArena::high_water() const {
  const std::lock_guard lock(mutex_);
  return high_water_;
}

}  // namespace animdex
