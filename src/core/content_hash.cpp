#include "core/content_hash.h"

#include <bit>
#include <fmt/format.h>
#include <xxhash.h>

namespace animdex {

namespace {
std::string to_hex(XXH64_hash_t hash) { return fmt::format("{:016x}", hash); }
}  // namespace

std::string hash_bytes(std::span<const std::byte> bytes) {
  return to_hex(XXH3_64bits(bytes.data(), bytes.size()));
}

void ContentHasher::add_f64(double value) { add_u64(std::bit_cast<std::uint64_t>(value)); }

void ContentHasher::add_text(std::string_view text) {
  add_u64(text.size());
  reserve_more(text.size());
  std::memcpy(serialised_.data() + size_, text.data(), text.size());
  size_ += text.size();
}

std::string ContentHasher::hex() const { return to_hex(XXH3_64bits(serialised_.data(), size_)); }

}  // namespace animdex
