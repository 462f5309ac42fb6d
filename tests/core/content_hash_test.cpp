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

TEST_CASE("a serialisation longer than the hasher's buffer hashes as one call over its bytes", "[core]") {
  for (const std::size_t count : {std::size_t{3}, std::size_t{511}, std::size_t{512}, std::size_t{5000}}) {
    ContentHasher hasher;
    std::vector<std::byte> bytes;
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t value = i * 0x9E3779B97F4A7C15ULL;
      hasher.add_u64(value);
      for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<std::byte>((value >> (8 * b)) & 0xFF));
    }
    const std::string text(5000, 'x');
    hasher.add_text(text);
    for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<std::byte>((text.size() >> (8 * b)) & 0xFF));
    for (const char c : text) bytes.push_back(static_cast<std::byte>(c));
    INFO(count);
    CHECK(hasher.hex() == hash_bytes(bytes));
  }
}
