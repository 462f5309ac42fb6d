#include "core/listing.h"

#include <fmt/format.h>

namespace animdex {

namespace {
constexpr std::size_t kShownBeforeLast = kListedInFull - 2;
}  // namespace

void Listing::add(std::string value) {
  if (count_++ < kListedInFull) first_.push_back(std::move(value));
  else last_ = std::move(value);
}

std::string Listing::text(std::string_view noun) const {
  if (count_ == 0) return "none";
  std::string text;
  const std::size_t shown = count_ <= kListedInFull ? count_ : kShownBeforeLast;
  for (std::size_t i = 0; i < shown; ++i) text += (i ? ", " : "") + first_[i];
  if (count_ <= kListedInFull) return text;
  return fmt::format("{}, ..., {} ({} {}{}in all)", text, last_, count_, noun, noun.empty() ? "" : " ");
}

std::string listing_text(const std::vector<std::string>& values, std::string_view noun) {
  Listing listing;
  for (const auto& value : values) listing.add(value);
  return listing.text(noun);
}

}  // namespace animdex
