#pragma once
// What every format's `exportable` and `sample` share: the times an export samples (every frame
// of the source's own rate, a rate asked for, or the one frame `pose --world` asks for) and the
// budget checked before the frames are made.
#include <cstddef>
#include <string>
#include <vector>

#include "formats/capabilities.h"

namespace animdex {

// Times in seconds from `first` to `last` (inclusive) at the request's rate, else `own_rate`; with
// request.frame or request.seconds, that one time (a frame is frame / rate seconds), which must lie
// inside the range.
Answer<std::vector<double>> export_times(const ExportRequest& request, double first, double last, double own_rate);

// The usage error when `frames` x `joints` transforms pass the samples budget; nullopt when they fit.
std::optional<CapabilityError> check_export_size(std::size_t frames, std::size_t joints, double rate);

// Names joined by commas: the first `shown`, then how many more (a file controls how many there are).
std::string joined_names(const std::vector<std::string>& names, std::size_t shown = 12);

}  // namespace animdex
