#include "output/table_stream.h"

#include <sstream>

namespace animdex {

TableStream::TableStream(Sink sink, std::vector<std::string> columns, OutputFormat format, bool header,
                         std::size_t max_held_rows)
    : sink_(std::move(sink)),
      batch_{std::move(columns), {}},
      format_(format),
      header_(header),
      streams_(format == OutputFormat::csv || format == OutputFormat::tsv || format == OutputFormat::jsonl),
      max_held_rows_(max_held_rows) {}

bool TableStream::add(std::vector<Cell> row) {
  if (!streams_ && batch_.rows.size() >= max_held_rows_) return false;
  batch_.rows.push_back(std::move(row));
  if (streams_ && batch_.rows.size() >= kBatchRows) flush();
  return true;
}

void TableStream::finish() { flush(); }

void TableStream::flush() {
  if (batch_.rows.empty() && written_) return;
  std::ostringstream text;
  write_table(text, batch_, format_, header_ && !written_);
  written_ = true;
  batch_.rows.clear();
  sink_(text.view());
}

}  // namespace animdex
