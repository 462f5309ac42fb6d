#pragma once
// SQLite's memory for an indexing process: its page-cache pages from a PageArena, the rest from
// SQLite's own allocator.
#include <cstddef>

#include "db/page_arena.h"

namespace animdex {

// Installs allocation functions (SQLITE_CONFIG_MALLOC) that serve every request of `page_bytes` up
// to one page cache slot (a page and SQLite's header for it) from an arena of `slots` slots, and
// pass everything else, and the requests the arena cannot serve, to the allocator SQLite had.
// SQLite's page cache allocates its pages one at a time from then on (no initial bulk block).
// Returns false, changing nothing, when SQLite has initialised or the arena cannot be reserved.
// The arena lives as long as the process: a second call (after sqlite3_shutdown) installs the
// same arena again, and only for the same page size (false for another).
bool give_sqlite_pages_an_arena(int page_bytes, std::size_t slots);

// The arena installed above, or nullptr.
const PageArena* sqlite_page_arena();

}  // namespace animdex
