#pragma once
// The set-up of the index tests, once.
#include <filesystem>
#include <string>

#include "indexer/pipeline.h"

namespace animdex::test {

// The options of `animdex index ROOT --db DATABASE --label LABEL` (the others their defaults), for a
// test that changes one more before run_index.
inline IndexOptions index_options(const std::filesystem::path& root, const std::filesystem::path& database,
                                  const std::string& label = "default") {
  IndexOptions index;
  index.roots = {root};
  index.database = database;
  index.label = label;
  return index;
}

// Indexes `root` into `database` as `animdex index ROOT --db DATABASE --label LABEL` does. Returns
// the run's summary.
inline IndexSummary index_tree(const std::filesystem::path& root, const std::filesystem::path& database,
                               const std::string& label = "default") {
  return run_index(index_options(root, database, label));
}

}  // namespace animdex::test
