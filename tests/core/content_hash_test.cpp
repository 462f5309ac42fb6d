#include <catch2/catch.hpp>

#include "core/content_hash.h"

using namespace animdex;

TEST_CASE("content hashes are 16 hex digits and depend on every field", "[core]") {
  auto hash_of = [](double value, std::string_view text) {
    ContentHasher hasher;
    hasher.add_f64(value);
    hasher.add_text(text);
    return hasher.hex();
  };
  const auto base = hash_of(1.0, "abc");
  CHECK(base.size() == 16);
  CHECK(base == hash_of(1.0, "abc"));
  CHECK(base != hash_of(1.0, "abd"));
  CHECK(hash_of(0.0, "") != hash_of(-0.0, ""));  // the sign of zero is content
  const std::byte raw[] = {std::byte{1}, std::byte{2}};
  CHECK(hash_bytes(raw) == hash_bytes(raw));
  CHECK(hash_bytes(raw).size() == 16);
}
