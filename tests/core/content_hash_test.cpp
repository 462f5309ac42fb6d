#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

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

TEST_CASE("add_words hashes as add_u64 of each word does, across chunk boundaries", "[core]") {
  ContentHasher by_word, by_run;
  std::vector<std::uint64_t> words;
  for (std::uint64_t i = 0; i < 1500; ++i) words.push_back(i * 0x9E3779B97F4A7C15ULL);
  by_word.add_text("lead");
  by_run.add_text("lead");
  std::size_t at = 0;
  for (std::size_t run = 1; at < words.size(); run = run % 11 + 1) {  // runs of 1..11 words, as a key's fields
    const std::size_t count = std::min(run, words.size() - at);
    for (std::size_t i = 0; i < count; ++i) by_word.add_u64(words[at + i]);
    by_run.add_words(std::span<const std::uint64_t>(words.data() + at, count));
    at += count;
  }
  CHECK(by_run.hex() == by_word.hex());
  ContentHasher long_word, long_run;  // a run longer than the hasher's chunk
  for (const auto word : words) long_word.add_u64(word);
  long_run.add_words(words);
  CHECK(long_run.hex() == long_word.hex());
}

TEST_CASE("raw bytes added to a hasher in pieces hash as the pieces joined", "[core]") {
  std::vector<std::byte> bytes(20000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>((i * 131 + i / 251) & 0xFF);
  for (const std::size_t cut : {std::size_t{0}, std::size_t{100}, std::size_t{4095}, std::size_t{4096}, std::size_t{9000}}) {
    INFO(cut);
    ContentHasher hasher;
    hasher.add_bytes(std::span<const std::byte>(bytes).first(cut));
    hasher.add_bytes(std::span<const std::byte>(bytes).subspan(cut, 7));
    hasher.add_bytes(std::span<const std::byte>(bytes).subspan(cut + 7));
    CHECK(hasher.hex() == hash_bytes(bytes));
  }
}
