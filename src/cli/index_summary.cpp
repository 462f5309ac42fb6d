#include "cli/index_summary.h"

#include <fmt/format.h>

#include "output/result_table.h"

namespace animdex {

std::string index_summary_text(const IndexOptions& options, const IndexSummary& summary) {
  const auto& totals = summary.totals;
  const std::string database = terminal_safe(options.database.string());
  const std::string label = terminal_safe(options.label);
  std::string text = fmt::format(
      "indexed {} files as dump '{}' in {:.2f} s: {} ok, {} errors, {} not animation files; {} animations\n",
      totals.files, label, summary.seconds, totals.ok, totals.errors, totals.unknown, totals.animations);
  if (totals.members > 0)
    text += fmt::format("{} of them are members of disc images and archives (animdex query containers --db {} -p dump {})\n",
                        totals.members, database, label);
  if (totals.incremental)
    text += fmt::format("updated in place: {} files unchanged, {} parsed (new or changed), {} removed\n",
                        totals.unchanged, totals.parsed, totals.removed);
  else
    text += fmt::format("parsed {} files: {} tracks, {} keys\n", totals.parsed, totals.tracks, totals.keys);
  if (totals.errors > 0)
    text += fmt::format("see them with: animdex query errors --db {} -p dump {}\n", database, label);
  if (totals.lost > 0)
    text += fmt::format("{} files could not be recorded at all: the database refused their rows, even as errors (see "
                        "them with: animdex sql \"SELECT * FROM scan_warnings\" --db {})\n",
                        totals.lost, database);
  return text;
}

}  // namespace animdex
