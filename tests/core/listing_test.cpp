#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/listing.h"

namespace animdex {

namespace {
std::vector<std::string> numbered(std::size_t count) {
  std::vector<std::string> values;
  for (std::size_t i = 0; i < count; ++i) values.push_back(std::to_string(i));
  return values;
}
}  // namespace

TEST_CASE("a listing names every value up to twelve, else ten, the last and the count", "[core]") {
  CHECK(listing_text({}, "slots") == "none");
  CHECK(listing_text({"open"}, "animations") == "open");
  CHECK(listing_text(numbered(12), "slots") == "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11");
  CHECK(listing_text(numbered(13), "slots") == "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ..., 12 (13 slots in all)");
  CHECK(listing_text(numbered(558), "slots") == "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ..., 557 (558 slots in all)");
  CHECK(listing_text(numbered(20), "") == "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ..., 19 (20 in all)");
  // Added one at a time, only the shown values are kept; the count is of every one.
  Listing listing;
  for (const auto& value : numbered(100'000)) listing.add(value);
  CHECK(listing.size() == 100'000);
  CHECK(listing.text("keys") == "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ..., 99999 (100000 keys in all)");
}

}  // namespace animdex
