#pragma once
// A memory budget for one parse. What a file's counts make a parser allocate (slots, keys, decoded
// samples) is charged here *before* allocating, so a file that claims a million slots or keys fails
// with the offset of the count instead of taking gigabytes. The indexer (and every verb that parses)
// sets it around a parse on the parsing thread, like the parse deadline; parsers only charge. It is
// held in a thread_local: with the deadline, the one state outside its arguments a parse reads.
// Without a budget in scope nothing is checked (unit tests of the parsers themselves).
#include <cstdint>
#include <string_view>

namespace animdex {

// Decoded bytes one file may make the parser hold: 32 MiB. Real files need far less (the largest
// KH2 motion set of the corpus, 2.5 MB, decodes to about 14 MiB).
inline constexpr std::uint64_t kDefaultParseBudget = 32ULL << 20;

class ScopedParseBudget {
 public:
  explicit ScopedParseBudget(std::uint64_t bytes = kDefaultParseBudget);
  ~ScopedParseBudget();
  ScopedParseBudget(const ScopedParseBudget&) = delete;
  ScopedParseBudget& operator=(const ScopedParseBudget&) = delete;
  std::uint64_t charged() const;  // bytes charged so far under this budget

 private:
  std::uint64_t previous_limit_, previous_charged_;
  bool had_previous_;
};

// Charges count * bytes_each; throws ParseFailure at `offset` (the field holding the count)
// naming `what` when this thread's budget would be exceeded.
void charge_parse_memory(std::uint64_t count, std::uint64_t bytes_each, std::uint64_t offset, std::string_view what);

}  // namespace animdex
