#include "support/subjournal_counter.h"

#include <sqlite3.h>

#include <atomic>
#include <stdexcept>

namespace animdex::test {

namespace {

sqlite3_vfs* real_vfs = nullptr;
sqlite3_vfs counting_vfs;
std::atomic<std::uint64_t> written{0};

// SQLite hands xOpen szOsFile bytes: this header, then the real VFS's file.
struct File {
  sqlite3_file base;
  bool subjournal;
  sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
};

sqlite3_file* real_of(sqlite3_file* file) { return reinterpret_cast<File*>(file)->real(); }
const sqlite3_io_methods& real_methods(sqlite3_file* file) { return *real_of(file)->pMethods; }

int close_file(sqlite3_file* f) { return real_methods(f).xClose(real_of(f)); }
int read_file(sqlite3_file* f, void* out, int amount, sqlite3_int64 offset) {
  return real_methods(f).xRead(real_of(f), out, amount, offset);
}
int write_file(sqlite3_file* f, const void* data, int amount, sqlite3_int64 offset) {
  if (reinterpret_cast<File*>(f)->subjournal) written += static_cast<std::uint64_t>(amount);
  return real_methods(f).xWrite(real_of(f), data, amount, offset);
}
int truncate_file(sqlite3_file* f, sqlite3_int64 size) { return real_methods(f).xTruncate(real_of(f), size); }
int sync_file(sqlite3_file* f, int flags) { return real_methods(f).xSync(real_of(f), flags); }
int file_size(sqlite3_file* f, sqlite3_int64* size) { return real_methods(f).xFileSize(real_of(f), size); }
int lock_file(sqlite3_file* f, int level) { return real_methods(f).xLock(real_of(f), level); }
int unlock_file(sqlite3_file* f, int level) { return real_methods(f).xUnlock(real_of(f), level); }
int check_reserved(sqlite3_file* f, int* out) { return real_methods(f).xCheckReservedLock(real_of(f), out); }
int file_control(sqlite3_file* f, int op, void* arg) { return real_methods(f).xFileControl(real_of(f), op, arg); }
int sector_size(sqlite3_file* f) { return real_methods(f).xSectorSize(real_of(f)); }
int device_characteristics(sqlite3_file* f) { return real_methods(f).xDeviceCharacteristics(real_of(f)); }
int shm_map(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
  return real_methods(f).xShmMap(real_of(f), region, size, extend, out);
}
int shm_lock(sqlite3_file* f, int offset, int count, int flags) {
  return real_methods(f).xShmLock(real_of(f), offset, count, flags);
}
void shm_barrier(sqlite3_file* f) { real_methods(f).xShmBarrier(real_of(f)); }
int shm_unmap(sqlite3_file* f, int remove) { return real_methods(f).xShmUnmap(real_of(f), remove); }
int fetch(sqlite3_file* f, sqlite3_int64 offset, int amount, void** out) {
  return real_methods(f).xFetch(real_of(f), offset, amount, out);
}
int unfetch(sqlite3_file* f, sqlite3_int64 offset, void* page) { return real_methods(f).xUnfetch(real_of(f), offset, page); }

const sqlite3_io_methods methods = {3,          close_file,    read_file,    write_file,    truncate_file,
                                    sync_file,  file_size,     lock_file,    unlock_file,   check_reserved,
                                    file_control, sector_size, device_characteristics, shm_map, shm_lock,
                                    shm_barrier, shm_unmap,    fetch,        unfetch};

int open_file(sqlite3_vfs*, const char* name, sqlite3_file* f, int flags, int* out_flags) {
  auto* file = reinterpret_cast<File*>(f);
  file->base.pMethods = nullptr;
  file->subjournal = (flags & SQLITE_OPEN_SUBJOURNAL) != 0;
  file->real()->pMethods = nullptr;
  const int result = real_vfs->xOpen(real_vfs, name, file->real(), flags, out_flags);
  // SQLite closes a file whose methods are set, even when the open failed: as the real one is.
  if (file->real()->pMethods) file->base.pMethods = &methods;
  return result;
}

}  // namespace

SubjournalCounter::SubjournalCounter() {
  real_vfs = sqlite3_vfs_find(nullptr);
  if (!real_vfs || real_vfs->iVersion < 1) throw std::runtime_error("no default SQLite VFS to wrap");
  counting_vfs = *real_vfs;  // its other calls, which take the VFS but keep no state of their own in it
  counting_vfs.zName = "animdex_subjournal_counter";
  counting_vfs.szOsFile = static_cast<int>(sizeof(File)) + real_vfs->szOsFile;
  counting_vfs.xOpen = open_file;
  counting_vfs.pNext = nullptr;
  written = 0;
  if (sqlite3_vfs_register(&counting_vfs, /*makeDflt=*/1) != SQLITE_OK) throw std::runtime_error("VFS not registered");
}

SubjournalCounter::~SubjournalCounter() { sqlite3_vfs_unregister(&counting_vfs); }

std::uint64_t SubjournalCounter::bytes() const { return written; }

}  // namespace animdex::test
