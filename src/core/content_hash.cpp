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

ContentHasher::ContentHasher() : state_(XXH3_createState()) {
  XXH3_64bits_reset(static_cast<XXH3_state_t*>(state_));
}

ContentHasher::~ContentHasher() { XXH3_freeState(static_cast<XXH3_state_t*>(state_)); }

void ContentHasher::add_u64(std::uint64_t value) {
  unsigned char le[8];
  for (int i = 0; i < 8; ++i) le[i] = static_cast<unsigned char>(value >> (8 * i));
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state_), le, sizeof le);
}

void ContentHasher::add_f64(double value) {
  // -0.0 and 0.0 differ in the file, so hash the bits, not the numeric value.
  add_u64(std::bit_cast<std::uint64_t>(value));
}

void ContentHasher::add_text(std::string_view text) {
  add_u64(text.size());
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state_), text.data(), text.size());
}

std::string ContentHasher::hex() const {
  return to_hex(XXH3_64bits_digest(static_cast<const XXH3_state_t*>(state_)));
}

}  // namespace animdex
