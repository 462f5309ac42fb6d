#pragma once
// Values named in one message (animations to choose from, slots, the names a parameter takes) when
// a file or a database decides how many there are: every one up to kListedInFull, else the first
// ones, the last and the count (`0, 1, ..., 9, ..., 557 (86 slots in all)`), so the message stays a
// line whatever the count. Kept as they are added: only what the text shows is held.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace animdex {

inline constexpr std::size_t kListedInFull = 12;

class Listing {
 public:
  void add(std::string value);
  std::size_t size() const noexcept { return count_; }
  // The values as above; `noun` counts them ("slots"); none at all: "none".
  std::string text(std::string_view noun) const;

 private:
  std::vector<std::string> first_;
  std::string last_;
  std::size_t count_ = 0;
};

std::string listing_text(const std::vector<std::string>& values, std::string_view noun);

}  // namespace animdex
