#pragma once
// The parallel stage's work for one ScanItem: a walked file, a container's own row, or a member
// opened from its container and parsed like a file.
#include <optional>
#include <string>

#include "indexer/rows.h"
#include "indexer/scan_queue.h"

namespace animdex {

// Never throws for bad input. `unchanged_hash`: the label's last content hash of this path.
FileRow process_scan_item(const ScanItem& item, const WalkEntry& entry, const ReferenceData& reference,
                          const ProcessOptions& options, const ContainerLimits& limits,
                          const std::optional<std::string>& unchanged_hash);

}  // namespace animdex
