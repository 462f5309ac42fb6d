#include "cli/index_summary.h"

#include <fmt/format.h>

#include "core/text.h"
#include "output/result_table.h"

namespace animdex {

std::string index_summary_text(const IndexOptions& options, const IndexSummary& summary) {
  const auto& totals = summary.totals;
  const std::string database = terminal_safe(options.database.string());
  const std::string label = terminal_safe(options.label);
  std::string text = fmt::format("indexed {} as dump '{}' in {:.2f} s: {} ok, {}, {} not {}; {}\n",
                                 counted(totals.files, "file"), label, summary.seconds, totals.ok,
                                 counted(totals.errors, "error"), totals.unknown,
                                 totals.unknown == 1 ? "an animation file" : "animation files",
                                 counted(totals.animations, "animation"));
  if (totals.members > 0)
    text += fmt::format("{} of them {} members of disc images and archives (animdex query containers --db {} -p dump {})\n",
                        totals.members, totals.members == 1 ? "is one of the" : "are", database, label);
  if (totals.incremental)
    text += fmt::format("updated in place: {} unchanged, {} parsed (new or changed), {} removed\n",
                        counted(totals.unchanged, "file"), counted(totals.parsed, "file"),
                        counted(totals.removed, "file"));
  else if (totals.animations > 0)
    text += fmt::format("parsed {}: {}, {}\n", counted(totals.parsed, "file"), counted(totals.tracks, "track"),
                        counted(totals.keys, "key"));
  if (totals.animations == 0)
    text += totals.files == 0 ? "warning: the roots hold no files at all: the dump is empty\n"
            // Files of a format animdex reads that failed: the errors say why, not the list of formats.
            : totals.errors > 0
                ? fmt::format("warning: no animation was read: {} of a format animdex reads could not be parsed\n",
                              counted(totals.errors, "file"))
                : fmt::format("warning: no animation among {}: animdex reads the formats `animdex formats` lists "
                              "(what each file was found to be: animdex query formats --db {} -p dump {})\n",
                              totals.files == 1 ? "this file" : fmt::format("these {} files", totals.files), database,
                              label);
  if (totals.errors > 0)
    text += fmt::format("see them with: animdex query errors --db {} -p dump {}\n", database, label);
  if (totals.lost > 0)
    text += fmt::format("{} files could not be recorded at all: the database refused their rows, even as errors (see "
                        "them with: animdex sql \"SELECT * FROM scan_warnings\" --db {})\n",
                        totals.lost, database);
  return text;
}

}  // namespace animdex
