#include "containers/fpk/prs.h"

#include <algorithm>
#include <fmt/format.h>
#include <string_view>

#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::fpk {

namespace {

// ---------------------------------------------------------------------------------------------
// Decoding

// The stream's two interleaved parts: flag bits, MSB first, from control bytes fetched only when
// a bit is needed and the previous 8 are used up; data bytes in between (containers.md 1).
class PrsStream {
 public:
  explicit PrsStream(std::span<const std::byte> stored) : in_(stored) {}

  bool bit(std::uint64_t produced, std::uint64_t size) {
    if (bits_left_ == 0) {
      control_ = byte("a control byte", produced, size);
      bits_left_ = 8;
    }
    const bool set = (control_ & 0x80) != 0;
    control_ = static_cast<std::uint8_t>(control_ << 1);
    --bits_left_;
    return set;
  }

  std::uint8_t byte(std::string_view what, std::uint64_t produced, std::uint64_t size) {
    if (cursor_ >= in_.size())
      fail_at(cursor_, fmt::format("{} (missing input: the stream ends before its {} bytes exist)", what, size),
              fmt::format("the end of the {}-byte stream after {} bytes", in_.size(), produced));
    return in_.u8(cursor_++);
  }

  std::uint64_t cursor() const { return cursor_; }

 private:
  ByteReader in_;
  std::uint64_t cursor_ = 0;
  std::uint8_t control_ = 0;
  int bits_left_ = 0;
};

struct Copy {
  std::uint64_t distance = 0;
  std::uint64_t length = 0;
  std::uint64_t token_at = 0;  // the distance byte or word: where an error points
};

// Bits 0,0: two flag bits give n - 2 (high bit first), then b gives d = 256 - b.
Copy read_short_copy(PrsStream& stream, std::uint64_t produced, std::uint64_t size) {
  const unsigned high = stream.bit(produced, size) ? 1 : 0;
  const unsigned low = stream.bit(produced, size) ? 1 : 0;
  Copy copy;
  copy.length = 2 + (high << 1 | low);
  copy.token_at = stream.cursor();
  copy.distance = kPrsShortMaxDistance - stream.byte("a short-copy distance byte", produced, size);
  return copy;
}

// Bits 0,1: a big-endian word w; w == 0 ends the stream, else d = 8192 - (w >> 3) and the low
// three bits give n - 2, or 0 for "one more byte holds n - 1".
Copy read_long_copy(PrsStream& stream, std::uint64_t produced, std::uint64_t size) {
  Copy copy;
  copy.token_at = stream.cursor();
  const unsigned high = stream.byte("a long-copy word", produced, size);
  const unsigned word = high << 8 | stream.byte("a long-copy word", produced, size);
  if (word == 0)
    fail_at(copy.token_at,
            fmt::format("a copy token (premature end: the end marker comes after {} of {} bytes)", produced, size),
            "the end marker 00 00");
  copy.distance = kPrsLongMaxDistance - (word >> 3);
  const unsigned length_bits = word & 7;
  copy.length = length_bits != 0 ? length_bits + 2
                                  : std::uint64_t{stream.byte("a long-copy length byte", produced, size)} + 1;
  return copy;
}

void check_copy(const Copy& copy, std::uint64_t produced, std::uint64_t size) {
  if (copy.distance > produced)
    fail_at(copy.token_at,
            fmt::format("a copy distance of at most {} (copy before the output start)", produced),
            fmt::format("distance {}", copy.distance));
  if (copy.length > size - produced)
    fail_at(copy.token_at,
            fmt::format("a copy of at most {} bytes (overrun past the {}-byte output)", size - produced, size),
            fmt::format("length {} at output byte {}", copy.length, produced));
}

// ---------------------------------------------------------------------------------------------
// Encoding

// Appends tokens the way GNTool's PRSCompressor lays them out: a control byte is reserved in the
// output when the first of its 8 bits is written, so it sits right before the data of its tokens.
class PrsWriter {
 public:
  explicit PrsWriter(std::size_t reserve) { out_.reserve(reserve); }

  void literal(std::byte value) {
    bit(true);
    out_.push_back(value);
  }

  void short_copy(std::uint64_t length, std::uint64_t distance) {  // length 2..5, distance 1..256
    bit(false);
    bit(false);
    bit(((length - 2) & 2) != 0);
    bit(((length - 2) & 1) != 0);
    byte(static_cast<std::uint8_t>((kPrsShortMaxDistance - distance) & 0xFF));
  }

  void long_copy(std::uint64_t length, std::uint64_t distance) {  // length 3..256, distance 1..8191
    bit(false);
    bit(true);
    // distance < 8192 keeps w >> 3 non-zero, so no copy ever reads as the end marker.
    const std::uint64_t length_bits = length <= 9 ? length - 2 : 0;
    const std::uint64_t word = (kPrsLongMaxDistance - distance) << 3 | length_bits;
    byte(static_cast<std::uint8_t>(word >> 8));
    byte(static_cast<std::uint8_t>(word & 0xFF));
    if (length > 9) byte(static_cast<std::uint8_t>(length - 1));
  }

  // GNTool's trailer: flag bits 0,1 (a long copy) and three 0x00 bytes: the word 0 (the end
  // marker) and the length byte a decoder that ignores the marker would read.
  std::vector<std::byte> finish() {
    bit(false);
    bit(true);
    for (int i = 0; i < 3; ++i) byte(0);
    return std::move(out_);
  }

 private:
  void bit(bool set) {
    if (bits_used_ == 8) {
      control_at_ = out_.size();
      out_.push_back(std::byte{0});
      bits_used_ = 0;
    }
    if (set) out_[control_at_] |= static_cast<std::byte>(0x80u >> bits_used_);
    ++bits_used_;
  }
  void byte(std::uint8_t value) { out_.push_back(static_cast<std::byte>(value)); }

  std::vector<std::byte> out_;
  std::size_t control_at_ = 0;
  int bits_used_ = 8;
};

// The longest earlier match for each position: hash chains over 3-byte prefixes within the window,
// plus the last position of every 2-byte pair (for 2-byte short copies). The plain bytes are the
// caller's own (a writer's input, not a file being parsed), so spans are read directly; every index
// stays below plain.size() by construction.
class MatchFinder {
 public:
  static constexpr std::uint64_t kWindow = kPrsLongMaxDistance - 1;  // 8191: see long_copy
  static constexpr int kMaxCandidates = 96;  // bounds the work per position on long runs
  struct Match {
    std::uint64_t length = 0, distance = 0;
  };

  explicit MatchFinder(std::span<const std::byte> plain)
      : plain_(plain), head_(std::size_t{1} << kHashBits, -1), chain_(kChainSize, -1), last_pair_(1 << 16, -1) {}

  // Records `position` as a match start for later positions (call once per position, in order).
  void insert(std::size_t position) {
    if (position + 2 < plain_.size()) {
      const std::size_t hash = hash3(position);
      chain_[position & (kChainSize - 1)] = head_[hash];
      head_[hash] = static_cast<std::int64_t>(position);
    }
    if (position + 1 < plain_.size()) last_pair_[pair(position)] = static_cast<std::int64_t>(position);
  }

  Match longest(std::size_t position) const {
    Match best;
    const std::uint64_t limit = std::min<std::uint64_t>(kPrsMaxLength, plain_.size() - position);
    if (limit < 2) return best;
    if (position + 2 < plain_.size()) {
      std::int64_t candidate = head_[hash3(position)];
      for (int step = 0; step < kMaxCandidates && candidate >= 0; ++step) {
        const auto start = static_cast<std::size_t>(candidate);
        if (position - start > kWindow) break;
        consider(start, position, limit, best);
        if (best.length == limit) return best;
        candidate = chain_[start & (kChainSize - 1)];
      }
    }
    if (best.length < 3) {
      // The latest occurrence of this byte pair is the nearest: at equal length it is never worse.
      const std::int64_t candidate = last_pair_[pair(position)];
      if (candidate >= 0 && position - static_cast<std::size_t>(candidate) <= kPrsShortMaxDistance) {
        Match nearest;
        consider(static_cast<std::size_t>(candidate), position, limit, nearest);
        if (nearest.length >= best.length) best = nearest;
      }
    }
    return best;
  }

 private:
  static constexpr int kHashBits = 15;
  static constexpr std::size_t kChainSize = 8192;  // > kWindow, so a slot is live while in the window

  void consider(std::size_t start, std::size_t position, std::uint64_t limit, Match& best) const {
    const auto earlier = plain_.subspan(start, limit);  // start < position, so start + limit fits
    const auto here = plain_.subspan(position, limit);
    const auto length = static_cast<std::uint64_t>(std::mismatch(here.begin(), here.end(), earlier.begin()).first -
                                                   here.begin());
    if (length > best.length) best = {length, position - start};
  }
  std::size_t hash3(std::size_t at) const {
    const std::uint32_t key = std::to_integer<std::uint32_t>(plain_[at]) << 16 |
                              std::to_integer<std::uint32_t>(plain_[at + 1]) << 8 |
                              std::to_integer<std::uint32_t>(plain_[at + 2]);
    return (key * 2654435761u) >> (32 - kHashBits);
  }
  std::size_t pair(std::size_t at) const {
    return std::to_integer<std::size_t>(plain_[at]) << 8 | std::to_integer<std::size_t>(plain_[at + 1]);
  }

  std::span<const std::byte> plain_;
  std::vector<std::int64_t> head_, chain_, last_pair_;
};

// Picks the cheapest token for a match, or none (0) when a literal is cheaper (a 2-byte match
// beyond short-copy reach would cost a 2-byte long copy, and a long copy cannot say n = 2).
std::uint64_t usable_length(const MatchFinder::Match& match) {
  if (match.length >= 3) return match.length;
  if (match.length == 2 && match.distance <= kPrsShortMaxDistance) return 2;
  return 0;
}

}  // namespace

Result<std::vector<std::byte>> prs_decompress(std::span<const std::byte> stored, std::uint64_t size,
                                              std::uint64_t produce) {
  return catch_parse_failure<std::vector<std::byte>>([&] {
    const std::uint64_t limit = std::min(size, produce);
    std::vector<std::byte> out(static_cast<std::size_t>(limit));
    PrsStream stream(stored);
    std::uint64_t produced = 0;
    while (produced < limit) {
      if (stream.bit(produced, size)) {
        const std::uint8_t literal = stream.byte("a literal byte", produced, size);
        out[produced++] = static_cast<std::byte>(literal);
        continue;
      }
      const Copy copy = stream.bit(produced, size) ? read_long_copy(stream, produced, size)
                                                   : read_short_copy(stream, produced, size);
      check_copy(copy, produced, size);  // against `size`: a copy may run past `produce` legally
      const std::uint64_t count = std::min(copy.length, limit - produced);
      // One byte at a time: a copy may overlap its own output (distance < length repeats a run).
      for (std::uint64_t i = 0; i < count; ++i, ++produced) out[produced] = out[produced - copy.distance];
    }
    return out;
  });
}

std::vector<std::byte> prs_compress(std::span<const std::byte> plain) {
  PrsWriter writer(plain.size() + plain.size() / 8 + 8);
  MatchFinder finder(plain);
  std::size_t position = 0;
  while (position < plain.size()) {
    const auto match = finder.longest(position);
    const std::uint64_t length = usable_length(match);
    if (length == 0) {
      writer.literal(plain[position]);
    } else if (length <= 5 && match.distance <= kPrsShortMaxDistance) {
      writer.short_copy(length, match.distance);
    } else {
      writer.long_copy(length, match.distance);
    }
    const std::size_t next = position + static_cast<std::size_t>(std::max<std::uint64_t>(length, 1));
    for (; position < next; ++position) finder.insert(position);
  }
  return writer.finish();
}

const Codec kPrsCodec{"prs", "Eighting PRS (LZ77 with flag bits), inside GNT4 FPK archives", prs_decompress};

}  // namespace animdex::fpk
