#pragma once
// Verbs that need more than a few lines live in their own files.
#include <filesystem>
#include <iosfwd>

#include "output/result_table.h"

namespace animdex {

struct InfoOptions {
  std::filesystem::path file;
  OutputFormat format = OutputFormat::table;
  bool show_keys = false;
};
int run_info(const InfoOptions& options, std::ostream& out);

struct DemoOptions {
  std::filesystem::path directory;  // sample dump and database go here
  int character_count = 12;
  OutputFormat format = OutputFormat::table;
  int threads = 0;
};
int run_demo(const DemoOptions& options, std::ostream& out);

}  // namespace animdex
