#include "core/content_hash.h"

#include <bit>
#include <new>
#include <fmt/format.h>
#include <xxhash.h>

namespace animdex {

namespace {
std::string to_hex(XXH64_hash_t hash) { return fmt::format("{:016x}", hash); }
}  // namespace

std::string hash_bytes(std::span<const std::byte> bytes) {
  return to_hex(XXH3_64bits(bytes.data(), bytes.size()));
}

ContentHasher::ContentHasher() = default;

ContentHasher::~ContentHasher() {
  if (state_) XXH3_freeState(static_cast<XXH3_state_t*>(state_));
}

void ContentHasher::flush() {
  if (!state_) {
    state_ = XXH3_createState();
    if (!state_) throw std::bad_alloc();
    XXH3_64bits_reset(static_cast<XXH3_state_t*>(state_));
  }
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state_), buffer_, size_);
  size_ = 0;
}

void ContentHasher::add_text(std::string_view text) {
  add_u64(text.size());
  while (!text.empty()) {
    if (size_ == kChunk) flush();
    const std::size_t take = std::min(text.size(), kChunk - size_);
    std::memcpy(buffer_ + size_, text.data(), take);
    size_ += take;
    text.remove_prefix(take);
  }
}

void ContentHasher::add_bytes(std::span<const std::byte> bytes) {
  if (size_ + bytes.size() <= kChunk) {
    if (!bytes.empty()) std::memcpy(buffer_ + size_, bytes.data(), bytes.size());
    size_ += bytes.size();
    return;
  }
  flush();
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state_), bytes.data(), bytes.size());
}

HexDigest ContentHasher::digest() {
  std::uint64_t hash = 0;
  if (!state_) {
    hash = XXH3_64bits(buffer_, size_);
  } else {
    flush();
    hash = XXH3_64bits_digest(static_cast<const XXH3_state_t*>(state_));
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  HexDigest digest;
  for (std::size_t i = 0; i < 16; ++i) digest.digits[i] = kDigits[(hash >> (60 - 4 * i)) & 0xF];
  return digest;
}

std::string ContentHasher::hex() { return digest().text(); }

}  // namespace animdex
