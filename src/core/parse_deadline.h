#pragma once
// A time limit on one parse, so a pathological file cannot stall a scan. The indexer sets it
// around each parse on the parsing thread; ByteReader (the only way parsers touch bytes)
// checks it every kDeadlineCheckInterval reads and fails the parse with its offset when it
// has passed. Parsers themselves stay unaware of it. Without a deadline, nothing is checked.
#include <chrono>
#include <cstdint>

namespace animdex {

inline constexpr std::uint32_t kDeadlineCheckInterval = 1024;

class ScopedParseDeadline {
 public:
  explicit ScopedParseDeadline(std::chrono::steady_clock::duration limit);
  ~ScopedParseDeadline();
  ScopedParseDeadline(const ScopedParseDeadline&) = delete;
  ScopedParseDeadline& operator=(const ScopedParseDeadline&) = delete;

 private:
  bool had_previous_;
  std::chrono::steady_clock::time_point previous_;
};

// Throws ParseFailure at `offset` if this thread's parse deadline has passed.
void check_parse_deadline(std::uint64_t offset);

}  // namespace animdex
