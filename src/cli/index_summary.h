#pragma once
// What `animdex index` says when it is done, as text: the index verb writes it to stderr and the
// demo to its transcript, so the demo shows exactly what the command it prints would say.
#include <string>

#include "indexer/pipeline.h"

namespace animdex {

std::string index_summary_text(const IndexOptions& options, const IndexSummary& summary);

}  // namespace animdex
