#include "indexer/drop_dump.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include "db/database.h"
#include "db/parameter_checks.h"

namespace animdex {

DroppedDump drop_dump(const std::filesystem::path& database, const std::string& label,
                      std::chrono::milliseconds lock_wait) {
  std::error_code missing;
  if (!std::filesystem::is_regular_file(database, missing))
    throw DatabaseError(database.string() + ": no such database file");
  auto db = open_for_writing(database, lock_wait);
  try {
    SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
    require_dump_label(db, label, "LABEL");
    SQLite::Statement about(db, "SELECT d.id, d.root, (SELECT COUNT(*) FROM files f WHERE f.dump_id = d.id), "
                                "(SELECT COUNT(*) FROM animations a JOIN files f ON f.id = a.file_id "
                                "WHERE f.dump_id = d.id) FROM dumps d WHERE d.label = ?");
    about.bind(1, label);
    about.executeStep();
    const std::int64_t id = about.getColumn(0).getInt64();
    DroppedDump dropped{about.getColumn(1).getString(), about.getColumn(2).getInt64(), about.getColumn(3).getInt64()};
    about.reset();
    SQLite::Statement remove(db, "DELETE FROM dumps WHERE id = ?");
    remove.bind(1, id);
    remove.exec();
    transaction.commit();
    leave_wal_mode(db);
    return dropped;
  } catch (const SQLite::Exception& error) {
    throw_if_locked(error, database, lock_wait);
    throw;
  }
}

}  // namespace animdex
