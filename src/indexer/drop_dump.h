#pragma once
// `animdex drop LABEL`: removes one dump and every row that belongs to it (its files, members,
// animations, tracks, keys and format rows go with it through the schema's ON DELETE CASCADE).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

namespace animdex {

struct DroppedDump {
  std::string root;  // where it was indexed from (dumps.root)
  std::int64_t files = 0, animations = 0;
};

// In one write transaction, waiting up to `lock_wait` for another writer. A label the database
// does not hold throws QueryUsageError listing the labels it does; nothing else is touched.
DroppedDump drop_dump(const std::filesystem::path& database, const std::string& label,
                      std::chrono::milliseconds lock_wait = std::chrono::seconds(60));

}  // namespace animdex
