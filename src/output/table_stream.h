#pragma once
// Rows written as they come, for outputs too long to hold whole (`export --bake` of a motion set,
// `ls --recursive` of an image): csv, tsv and jsonl need no column widths, so their rows go out a
// batch at a time; the aligned formats (table, markdown, json, html) hold their rows to the end, at
// most `max_held_rows`.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "output/result_table.h"

namespace animdex {

class TableStream {
 public:
  static constexpr std::size_t kBatchRows = 4096;
  using Sink = std::function<void(std::string_view text)>;

  TableStream(Sink sink, std::vector<std::string> columns, OutputFormat format, bool header,
              std::size_t max_held_rows = SIZE_MAX);

  // False (and the row is dropped) when an aligned format already holds max_held_rows.
  bool add(std::vector<Cell> row);
  // Writes what is left: the header of an empty result too, as write_table does.
  void finish();

 private:
  void flush();

  Sink sink_;
  ResultTable batch_;
  OutputFormat format_;
  bool header_;
  bool streams_;
  bool written_ = false;
  std::size_t max_held_rows_;
};

}  // namespace animdex
