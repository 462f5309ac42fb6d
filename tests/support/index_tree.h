#pragma once
// The set-up of most index tests, once.
#include <filesystem>
#include <string>

#include "indexer/pipeline.h"

namespace animdex::test {

// Indexes `root` into `database` as `animdex index ROOT --db DATABASE --label LABEL` does (the other
// options their defaults). Returns the run's summary.
inline IndexSummary index_tree(const std::filesystem::path& root, const std::filesystem::path& database,
                               const std::string& label = "default") {
  IndexOptions index;
  index.roots = {root};
  index.database = database;
  index.label = label;
  return run_index(index);
}

}  // namespace animdex::test
