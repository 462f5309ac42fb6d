#include "db/sqlite_memory.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace animdex {

namespace {

// Set once, before SQLite initialises, and only read after: the functions below run on any thread.
struct ArenaAllocator {
  sqlite3_mem_methods fallback{};  // the allocator SQLite had
  PageArena* arena = nullptr;      // never freed: SQLite may free pages until the process exits
  std::size_t smallest = 0;        // the least request the arena serves (a page)
};
ArenaAllocator allocator;

bool arena_serves(int bytes) {
  const auto size = static_cast<std::size_t>(bytes);
  return bytes > 0 && size >= allocator.smallest && size <= allocator.arena->slot_bytes();
}

void* arena_malloc(int bytes) {
  if (arena_serves(bytes))
    if (void* slot = allocator.arena->take()) return slot;
  return allocator.fallback.xMalloc(bytes);  // not a page, or the arena is full (the rest of the cache)
}

void arena_free(void* pointer) {
  if (allocator.arena->holds(pointer)) allocator.arena->give_back(pointer);
  else allocator.fallback.xFree(pointer);
}

int arena_size(void* pointer) {
  if (allocator.arena->holds(pointer)) return static_cast<int>(allocator.arena->slot_bytes());
  return allocator.fallback.xSize(pointer);
}

void* arena_realloc(void* pointer, int bytes) {
  if (!allocator.arena->holds(pointer)) return allocator.fallback.xRealloc(pointer, bytes);
  if (arena_serves(bytes)) return pointer;  // the slot holds it already
  void* moved = allocator.fallback.xMalloc(bytes);
  if (moved == nullptr) return nullptr;  // SQLite keeps the old block, as after a failed realloc
  std::memcpy(moved, pointer, std::min(static_cast<std::size_t>(bytes), allocator.arena->slot_bytes()));
  allocator.arena->give_back(pointer);
  return moved;
}

int arena_roundup(int bytes) { return allocator.fallback.xRoundup(bytes); }
int arena_init(void*) { return allocator.fallback.xInit(allocator.fallback.pAppData); }
void arena_shutdown(void*) { allocator.fallback.xShutdown(allocator.fallback.pAppData); }

bool install_arena_allocator() {
  const sqlite3_mem_methods methods{arena_malloc, arena_free,     arena_realloc, arena_size,
                                    arena_roundup, arena_init, arena_shutdown, nullptr};
  if (sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) != SQLITE_OK) return false;  // SQLite has initialised
  // No page-cache buffer and no initial bulk block: every page is one allocation, so one slot.
  sqlite3_config(SQLITE_CONFIG_PAGECACHE, nullptr, 0, 0);
  return true;
}

}  // namespace

bool give_sqlite_pages_an_arena(int page_bytes, std::size_t slots) {
  int header = 0;
  if (page_bytes <= 0 || sqlite3_config(SQLITE_CONFIG_PCACHE_HDRSZ, &header) != SQLITE_OK) return false;
  const auto slot_bytes = static_cast<std::size_t>(page_bytes) + static_cast<std::size_t>(header);
  if (allocator.arena != nullptr) {  // installed before SQLite was shut down: its slots may still be held
    if (allocator.smallest != static_cast<std::size_t>(page_bytes) || allocator.arena->slot_bytes() < slot_bytes)
      return false;
    return install_arena_allocator();
  }
  sqlite3_mem_methods current{};
  if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &current) != SQLITE_OK) return false;
  auto arena = std::make_unique<PageArena>(slot_bytes, slots);
  if (arena->capacity() == 0) return false;
  allocator = {current, arena.get(), static_cast<std::size_t>(page_bytes)};
  if (!install_arena_allocator()) {
    allocator = {};  // never installed, so nothing holds its slots
    return false;
  }
  arena.release();  // SQLite may free its slots until the process exits
  return true;
}

const PageArena* sqlite_page_arena() { return allocator.arena; }

}  // namespace animdex
