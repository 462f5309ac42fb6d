#include "containers/kh2_idx/kh2_compression.h"

#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <fmt/format.h>
#include <stdexcept>

#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::kh2_idx {

namespace {

std::uint8_t byte_at(std::span<const std::byte> bytes, std::size_t index) {
  return std::to_integer<std::uint8_t>(bytes[index]);
}

// Where the stream's tokens end, and its key (section 4: skip trailing zeros, key, 4 size bytes).
struct StreamTail {
  std::size_t tokens_end = 0;  // tokens are stored[0, tokens_end)
  std::uint8_t key = 0;
};

std::optional<std::size_t> last_non_zero(std::span<const std::byte> stored) {
  for (std::size_t index = stored.size(); index > 0; --index)
    if (stored[index - 1] != std::byte{0}) return index - 1;
  return std::nullopt;
}

StreamTail read_tail(std::span<const std::byte> stored, std::size_t key_at, std::uint64_t size) {
  if (key_at < 4)
    fail_at(key_at, "a 4-byte big-endian size before the KH2 key byte", fmt::format("{} bytes", key_at));
  const std::uint32_t embedded = ByteReader(stored).u32be(key_at - 4);
  if (embedded != size)
    fail_at(key_at - 4, fmt::format("the stream's size to equal the IDX size {}", size), fmt::format("{}", embedded));
  // A copy token (3 bytes) makes at most 258 bytes: a size beyond 86 per token byte cannot be
  // reached, and is refused before the output is allocated.
  const std::uint64_t tokens = key_at - 4;
  if (size > tokens * (kKh2MaxCopy / 3))
    fail_at(0, fmt::format("at least {} bytes of tokens for {} output bytes (86 per byte at most)",
                           (size + kKh2MaxCopy / 3 - 1) / (kKh2MaxCopy / 3), size),
            fmt::format("{}", tokens));
  return {tokens, byte_at(stored, key_at)};
}

// The output seen by the decoder: positions below `keep` are the result; the others live in a
// 256-byte window, enough because a copy reads at most 255 positions above the one it writes.
class BackwardOutput {
 public:
  explicit BackwardOutput(std::uint64_t keep) : out_(static_cast<std::size_t>(keep)) {}
  std::byte& at(std::uint64_t position) {
    return position < out_.size() ? out_[static_cast<std::size_t>(position)] : window_[position & 0xFF];
  }
  std::vector<std::byte> take() { return std::move(out_); }

 private:
  std::vector<std::byte> out_;
  std::array<std::byte, 256> window_{};
};

// One copy token read from the key at stored[key_at]: checks it stays inside the output.
void copy_back(BackwardOutput& out, std::uint64_t& position, std::uint64_t size, std::uint64_t distance,
               std::uint64_t length, std::size_t key_at) {
  if (length > position)
    fail_at(key_at, fmt::format("a copy of at most {} bytes (the output start)", position),
            fmt::format("{} bytes", length));
  if (position - 1 + distance >= size)
    fail_at(key_at, fmt::format("a copy source inside the {}-byte output", size),
            fmt::format("distance {} from position {}", distance, position - 1));
  for (std::uint64_t copied = 0; copied < length; ++copied) {
    --position;
    out.at(position) = out.at(position + distance);
  }
}

std::vector<std::byte> decode_tokens(std::span<const std::byte> stored, const StreamTail& tail, std::uint64_t size,
                                     std::uint64_t keep) {
  BackwardOutput out(keep);
  std::uint64_t position = size;  // the next byte written is out[position - 1]
  std::size_t input = tail.tokens_end;  // the next byte read is stored[input - 1]
  while (position > 0) {
    if (input == 0)
      fail_at(0, fmt::format("input for the {} output bytes still missing", position), "the start of the stream");
    const std::uint8_t token = byte_at(stored, --input);
    if (token != tail.key) {
      out.at(--position) = std::byte{token};
      continue;
    }
    const std::size_t key_at = input;
    if (input == 0) fail_at(key_at, "a distance byte before the key byte", "the start of the stream");
    const std::uint8_t distance = byte_at(stored, --input);
    if (distance == 0) {  // K 0: the key itself as a literal
      out.at(--position) = std::byte{tail.key};
      continue;
    }
    if (input == 0) fail_at(key_at, "a length byte before the distance byte", "the start of the stream");
    const std::uint64_t length = byte_at(stored, --input) + kKh2MinCopy;
    copy_back(out, position, size, distance, length, key_at);
  }
  if (input != 0)
    fail_at(input - 1, "the stream to end where the output is full", fmt::format("{} bytes left", input));
  return out.take();
}

}  // namespace

Result<std::vector<std::byte>> kh2_decompress(std::span<const std::byte> stored, std::uint64_t size,
                                              std::uint64_t produce) {
  return catch_parse_failure<std::vector<std::byte>>([&] {
    const auto key_at = last_non_zero(stored);
    if (!key_at) {  // all zero: the empty stream (section 4)
      if (size != 0)
        fail_at(0, fmt::format("a KH2 stream of {} bytes (the IDX size)", size), "only zero bytes (an empty stream)");
      return std::vector<std::byte>{};
    }
    const StreamTail tail = read_tail(stored, *key_at, size);
    return decode_tokens(stored, tail, size, std::min(size, produce));
  });
}

namespace {

// The key: the least used byte of 1..255 (0 cannot be one: trailing zeros are padding), the lowest
// on a tie, as OpenKh's Img.GetLeastUsedByte.
std::uint8_t least_used_byte(std::span<const std::byte> plain) {
  std::array<std::uint64_t, 256> counts{};
  for (const std::byte b : plain) ++counts[std::to_integer<std::uint8_t>(b)];
  std::uint8_t key = 1;
  for (int value = 2; value < 256; ++value)
    if (counts[static_cast<std::size_t>(value)] < counts[key]) key = static_cast<std::uint8_t>(value);
  return key;
}

// Greedy LZ77 over the input reversed (what the decoder produces first comes first here), so a
// copy reads earlier positions of the reversed input: reversed[q] = reversed[q - d].
class ReversedMatcher {
 public:
  // The hash table grows with the input (2^8..2^16 heads): small inputs stay cheap to start.
  explicit ReversedMatcher(std::span<const std::byte> plain)
      : plain_(plain), hash_bits_(std::clamp(static_cast<int>(std::bit_width(plain.size())), 8, 16)), head_(std::size_t{1} << hash_bits_, kNone) {}

  std::uint8_t at(std::uint64_t q) const { return std::to_integer<std::uint8_t>(plain_[plain_.size() - 1 - q]); }
  std::uint64_t size() const { return plain_.size(); }

  void insert(std::uint64_t q) {
    if (q + 3 > size()) return;
    const std::size_t bucket = hash(q);
    prev_[q & 0xFF] = head_[bucket];
    head_[bucket] = static_cast<std::uint32_t>(q);
  }

  struct Match {
    std::uint64_t length = 0, distance = 0;
  };

  // The longest earlier match within 255 positions (3..258 bytes), nearest first on a tie.
  Match longest(std::uint64_t q) const {
    Match best;
    if (q + 3 > size()) return best;
    const std::uint64_t limit = std::min<std::uint64_t>(kKh2MaxCopy, size() - q);
    for (std::uint32_t candidate = head_[hash(q)]; candidate != kNone && q - candidate <= kKh2MaxDistance;
         candidate = prev_[candidate & 0xFF]) {
      const std::uint64_t from = candidate;
      std::uint64_t length = 0;
      while (length < limit && at(from + length) == at(q + length)) ++length;
      if (length > best.length) best = {length, q - from};
      if (length == limit) break;
    }
    return best;
  }

 private:
  std::size_t hash(std::uint64_t q) const {
    const std::uint32_t three = (static_cast<std::uint32_t>(at(q)) << 16) | (static_cast<std::uint32_t>(at(q + 1)) << 8) | at(q + 2);
    return (three * 2654435761U) >> (32 - hash_bits_);
  }

  static constexpr std::uint32_t kNone = 0xFFFFFFFFU;  // inputs are under 4 GiB: no position has it

  std::span<const std::byte> plain_;
  int hash_bits_;
  std::vector<std::uint32_t> head_;
  std::array<std::uint32_t, 256> prev_{};  // the chain within the window: position & 0xFF
};

// Is a 3-byte copy worth it? Only when it replaces an escaped key (3 literals cost 3 bytes too).
bool worth_copying(const ReversedMatcher& matcher, std::uint64_t q, std::uint64_t length, std::uint8_t key) {
  if (length >= 4) return true;
  if (length < kKh2MinCopy) return false;
  for (std::uint64_t i = 0; i < length; ++i)
    if (matcher.at(q + i) == key) return true;
  return false;
}

}  // namespace

std::vector<std::byte> kh2_compress(std::span<const std::byte> plain) {
  if (plain.size() > 0xFFFFFFFFULL) throw std::length_error("KH2 compression stores sizes in 32 bits");
  const std::uint8_t key = least_used_byte(plain);
  ReversedMatcher matcher(plain);
  std::vector<std::uint8_t> tokens;  // in the order the decoder reads them (from the stream's end)
  tokens.reserve(plain.size() + plain.size() / 8 + 16);
  for (std::uint64_t q = 0; q < matcher.size();) {
    const auto match = matcher.longest(q);
    if (worth_copying(matcher, q, match.length, key)) {
      tokens.insert(tokens.end(), {key, static_cast<std::uint8_t>(match.distance),
                                   static_cast<std::uint8_t>(match.length - kKh2MinCopy)});
      for (std::uint64_t i = 0; i < match.length; ++i) matcher.insert(q + i);
      q += match.length;
      continue;
    }
    const std::uint8_t literal = matcher.at(q);
    if (literal == key) tokens.insert(tokens.end(), {key, 0});
    else tokens.push_back(literal);
    matcher.insert(q);
    ++q;
  }
  std::vector<std::byte> stream;
  stream.reserve(tokens.size() + 5);
  for (auto it = tokens.rbegin(); it != tokens.rend(); ++it) stream.push_back(std::byte{*it});
  const auto size = static_cast<std::uint32_t>(plain.size());
  for (int shift = 24; shift >= 0; shift -= 8) stream.push_back(static_cast<std::byte>((size >> shift) & 0xFF));
  stream.push_back(std::byte{key});
  return stream;
}

const Codec kKh2Codec{"kh2", "KH2.IMG's backward LZ with a key byte", kh2_decompress, true};

}  // namespace animdex::kh2_idx
