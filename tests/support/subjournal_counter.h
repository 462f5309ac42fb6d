#pragma once
// Counts the bytes SQLite writes to statement and savepoint sub-journals while an instance lives:
// the files it opens with SQLITE_OPEN_SUBJOURNAL, which it does once such a journal outgrows the
// 64 KiB it keeps in memory. A VFS of its own is the process's default meanwhile, forwarding every
// call to the one before, so only connections opened in that time are counted.
#include <cstdint>

namespace animdex::test {

class SubjournalCounter {
 public:
  SubjournalCounter();
  ~SubjournalCounter();
  SubjournalCounter(const SubjournalCounter&) = delete;
  SubjournalCounter& operator=(const SubjournalCounter&) = delete;
  std::uint64_t bytes() const;
};

}  // namespace animdex::test
