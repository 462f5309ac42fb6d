#pragma once
// Output that is known to have arrived: a full disk or a closed pipe is an error, not "wrote".
#include <filesystem>
#include <iosfwd>
#include <string_view>

namespace animdex {

// Writes `bytes` to `path`, flushes and closes it; throws std::runtime_error naming the path and the
// system's reason if any step fails (e.g. "No space left on device"). A regular file is replaced
// only once the new one is complete (written beside it, then renamed over it).
void write_file_checked(const std::filesystem::path& path, std::string_view bytes);

// Flushes `out`; false when it, or anything written to it before, failed.
bool flush_succeeded(std::ostream& out);

}  // namespace animdex
