#include "containers/lz/lz.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <stdexcept>

#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::lz {

namespace {

constexpr std::uint8_t kLz10Type = 0x10;
constexpr std::uint8_t kLz11Type = 0x11;
constexpr std::uint64_t kWindow = 4096;  // d = 12 bits + 1
constexpr std::uint64_t kMinMatch = 3;
// The real compressor's streams never use d = 1 (the 120,074 back-references of the HGSS archives
// have d >= 2): the BIOS's VRAM variant writes 16 bits at a time and cannot copy from the byte
// just written. Ours keep that rule, so their output suits both BIOS decoders.
constexpr std::uint64_t kMinDistance = 2;
constexpr std::uint64_t kLz10MaxMatch = 18;     // (b0>>4) + 3
constexpr std::uint64_t kLz11Max2Byte = 16;     // k + 1, k = 2..15
constexpr std::uint64_t kLz11Max3Byte = 0x110;  // 8 bits + 0x11 = 272
constexpr std::uint64_t kLz11MaxMatch = 0x1010F;  // 16 bits + 0x111 = 65808

std::uint8_t byte_at(std::span<const std::byte> bytes, std::uint64_t at) {
  return std::to_integer<std::uint8_t>(bytes[static_cast<std::size_t>(at)]);
}

// The token rules of containers.md section 3, one stream at a time. Reads are checked against the
// input before they happen, so every error names the token or byte that broke a rule.
class Decoder {
 public:
  Decoder(std::span<const std::byte> stored, const LzHeader& header, std::uint64_t produce)
      : stored_(stored), type_(header.type), size_(header.size), target_(std::min(header.size, produce)),
        in_(header.header_length) {}

  LzDecoded run() {
    LzDecoded decoded;
    decoded.bytes.resize(static_cast<std::size_t>(target_));
    out_ = decoded.bytes.data();
    while (pos_ < target_) decode_group();
    if (target_ == size_) decoded.trailing_bytes = stored_.size() - in_;
    return decoded;
  }

 private:
  // One flag byte, MSB first: bit 1 = back-reference, bit 0 = literal.
  void decode_group() {
    const std::uint8_t flags = next_byte("a flag byte");
    for (int bit = 7; bit >= 0 && pos_ < target_; --bit) {
      if ((flags >> bit) & 1) back_reference();
      else out_[pos_++] = std::byte{next_byte("a literal byte")};
    }
  }

  std::uint8_t next_byte(std::string_view what) {
    if (in_ >= stored_.size())
      fail_at(in_, fmt::format("{} (the output holds {} of {} bytes)", what, pos_, size_), "the end of the input");
    return byte_at(stored_, in_++);
  }

  // Takes a token of `length` bytes whole, so a cut token is reported at its first byte.
  std::array<std::uint8_t, 4> token_bytes(std::uint64_t at, std::size_t length) {
    if (stored_.size() - at < length)
      fail_at(at, fmt::format("a {}-byte back-reference", length),
              fmt::format("{} bytes before the end of the input", stored_.size() - at));
    std::array<std::uint8_t, 4> token{};
    for (std::size_t i = 0; i < length; ++i) token[i] = byte_at(stored_, at + i);
    in_ = at + length;
    return token;
  }

  void back_reference() {
    const std::uint64_t token_at = in_;
    if (token_at >= stored_.size()) token_bytes(token_at, 2);  // reports the missing token
    const std::uint8_t kind = byte_at(stored_, token_at) >> 4;
    if (type_ == LzType::lz10 || kind >= 2) {
      // LZ10, LZ11 k >= 2: n = (b0>>4) + 3 (LZ11: k + 1), d = 12 bits + 1.
      const auto t = token_bytes(token_at, 2);
      const std::uint64_t length = type_ == LzType::lz10 ? kind + 3u : kind + 1u;
      copy(token_at, length, (((t[0] & 0xFu) << 8) | t[1]) + 1);
    } else if (kind == 0) {
      const auto t = token_bytes(token_at, 3);
      copy(token_at, (((t[0] & 0xFu) << 4) | (t[1] >> 4)) + 0x11, (((t[1] & 0xFu) << 8) | t[2]) + 1);
    } else {
      const auto t = token_bytes(token_at, 4);
      copy(token_at, (((t[0] & 0xFu) << 12) | (t[1] << 4) | (t[2] >> 4)) + 0x111, (((t[2] & 0xFu) << 8) | t[3]) + 1);
    }
  }

  // Forward one byte at a time from out[pos - d], so an overlapping copy repeats a run.
  void copy(std::uint64_t token_at, std::uint64_t length, std::uint64_t distance) {
    if (distance > pos_)
      fail_at(token_at, fmt::format("a back-reference distance at most the {} bytes output so far", pos_),
              fmt::format("distance {}", distance));
    if (length > size_ - pos_)
      fail_at(token_at, fmt::format("a copy that ends within the {}-byte output", size_),
              fmt::format("{} bytes at output offset {}", length, pos_));
    const std::uint64_t count = std::min(length, target_ - pos_);
    for (std::uint64_t i = 0; i < count; ++i, ++pos_) out_[pos_] = out_[pos_ - distance];
  }

  std::span<const std::byte> stored_;
  LzType type_;
  std::uint64_t size_, target_;
  std::uint64_t in_;
  std::uint64_t pos_ = 0;
  std::byte* out_ = nullptr;
};

// --- compression -----------------------------------------------------------------------------

struct Match {
  std::uint64_t length = 0;
  std::uint64_t distance = 0;
};

// Hash chains over 3-byte prefixes, bounded to kMaxCandidates per position, so compression stays
// linear in the input whatever it holds.
class MatchFinder {
 public:
  explicit MatchFinder(std::span<const std::byte> plain) : plain_(plain), head_(kHashSize, kNone), prev_(kWindow, kNone) {}

  void insert(std::uint64_t pos) {
    if (plain_.size() - pos < kMinMatch) return;
    const std::size_t hash = hash_at(pos);
    prev_[pos % kWindow] = head_[hash];
    head_[hash] = pos;
  }

  Match longest(std::uint64_t pos, std::uint64_t max_length) const {
    Match best;
    max_length = std::min<std::uint64_t>(max_length, plain_.size() - pos);
    if (max_length < kMinMatch) return best;
    std::uint64_t candidate = head_[hash_at(pos)];
    for (int tries = 0; candidate != kNone && pos - candidate <= kWindow && tries < kMaxCandidates; ++tries) {
      const std::uint64_t length = pos - candidate < kMinDistance ? 0 : match_length(candidate, pos, max_length);
      if (length > best.length) best = {length, pos - candidate};
      if (length == max_length) break;
      const std::uint64_t older = prev_[candidate % kWindow];
      if (older == kNone || older >= candidate) break;
      candidate = older;
    }
    if (best.length < kMinMatch) best = {};
    return best;
  }

 private:
  static constexpr std::size_t kHashSize = 1u << 15;
  static constexpr std::uint64_t kNone = UINT64_MAX;
  static constexpr int kMaxCandidates = 48;

  std::size_t hash_at(std::uint64_t pos) const {
    const std::uint32_t key = (std::uint32_t{byte_at(plain_, pos)} << 16) | (std::uint32_t{byte_at(plain_, pos + 1)} << 8) |
                              byte_at(plain_, pos + 2);
    return (key * 2654435761u) >> 17;
  }

  std::uint64_t match_length(std::uint64_t from, std::uint64_t pos, std::uint64_t max_length) const {
    std::uint64_t length = 0;
    while (length < max_length && plain_[from + length] == plain_[pos + length]) ++length;
    return length;
  }

  std::span<const std::byte> plain_;
  std::vector<std::uint64_t> head_;
  std::vector<std::uint64_t> prev_;
};

// Groups of 8 tokens behind a flag byte, MSB first.
class TokenWriter {
 public:
  explicit TokenWriter(std::vector<std::byte>& out) : out_(out) {}

  void literal(std::byte value) {
    begin_token(false);
    out_.push_back(value);
  }

  void reference(std::span<const std::uint8_t> token) {
    begin_token(true);
    for (std::uint8_t b : token) out_.push_back(std::byte{b});
  }

 private:
  void begin_token(bool is_reference) {
    if (bit_ < 0) {
      flag_at_ = out_.size();
      out_.push_back(std::byte{0});
      bit_ = 7;
    }
    if (is_reference) out_[flag_at_] |= std::byte{static_cast<std::uint8_t>(1u << bit_)};
    --bit_;
  }

  std::vector<std::byte>& out_;
  std::size_t flag_at_ = 0;
  int bit_ = -1;
};

void write_header(std::vector<std::byte>& out, std::uint8_t type, std::uint64_t size) {
  if (size > UINT32_MAX) throw std::length_error("LZ10/LZ11 cannot hold 4 GiB or more");
  out.push_back(std::byte{type});
  // A u24 of 0 announces the u32 form, so the empty input needs it too.
  const bool wide = size == 0 || size > 0xFFFFFF;
  for (int i = 0; i < 3; ++i) out.push_back(std::byte{static_cast<std::uint8_t>(wide ? 0 : size >> (8 * i))});
  if (wide)
    for (int i = 0; i < 4; ++i) out.push_back(std::byte{static_cast<std::uint8_t>(size >> (8 * i))});
}

// LZ10: one 2-byte token form; LZ11: the shortest of its three forms that holds the length.
void write_reference(TokenWriter& tokens, std::uint8_t type, const Match& match) {
  const std::uint64_t d = match.distance - 1;
  const auto dhi = static_cast<std::uint8_t>(d >> 8), dlo = static_cast<std::uint8_t>(d & 0xFF);
  if (type == kLz10Type) {
    const std::uint8_t token[2] = {static_cast<std::uint8_t>(((match.length - 3) << 4) | dhi), dlo};
    tokens.reference(token);
  } else if (match.length <= kLz11Max2Byte) {
    const std::uint8_t token[2] = {static_cast<std::uint8_t>(((match.length - 1) << 4) | dhi), dlo};
    tokens.reference(token);
  } else if (match.length <= kLz11Max3Byte) {
    const std::uint64_t n = match.length - 0x11;
    const std::uint8_t token[3] = {static_cast<std::uint8_t>(n >> 4), static_cast<std::uint8_t>(((n & 0xF) << 4) | dhi), dlo};
    tokens.reference(token);
  } else {
    const std::uint64_t n = match.length - 0x111;
    const std::uint8_t token[4] = {static_cast<std::uint8_t>(0x10 | (n >> 12)), static_cast<std::uint8_t>((n >> 4) & 0xFF),
                                   static_cast<std::uint8_t>(((n & 0xF) << 4) | dhi), dlo};
    tokens.reference(token);
  }
}

std::vector<std::byte> compress(std::span<const std::byte> plain, std::uint8_t type) {
  std::vector<std::byte> out;
  write_header(out, type, plain.size());
  TokenWriter tokens(out);
  MatchFinder finder(plain);
  const std::uint64_t max_length = type == kLz10Type ? kLz10MaxMatch : kLz11MaxMatch;
  std::uint64_t pos = 0;
  while (pos < plain.size()) {
    const Match match = finder.longest(pos, max_length);
    if (match.length == 0) {
      tokens.literal(plain[pos]);
      finder.insert(pos++);
      continue;
    }
    write_reference(tokens, type, match);
    for (std::uint64_t end = pos + match.length; pos < end; ++pos) finder.insert(pos);
  }
  out.resize((out.size() + 3) / 4 * 4, std::byte{0});  // BIOS-style 4-byte padding
  return out;
}

}  // namespace

std::optional<LzHeader> read_lz_header(std::span<const std::byte> stored) {
  if (stored.size() < 4) return std::nullopt;
  const ByteReader in(stored);
  LzHeader header;
  if (in.u8(0) == kLz10Type) header.type = LzType::lz10;
  else if (in.u8(0) == kLz11Type) header.type = LzType::lz11;
  else return std::nullopt;
  header.size = in.u32le(0) >> 8;
  if (header.size != 0) return header;
  if (stored.size() < 8) return std::nullopt;
  header.size = in.u32le(4);
  header.header_length = 8;
  return header;
}

Result<LzDecoded> lz_decode(std::span<const std::byte> stored, std::uint64_t size, std::uint64_t produce) {
  return catch_parse_failure<LzDecoded>([&] {
    const auto header = read_lz_header(stored);
    if (!header)
      fail_at(0, "an LZ10 (0x10) or LZ11 (0x11) header of 4 bytes (8 when its 24-bit size is 0)",
              stored.empty() ? "no bytes" : fmt::format("type {:#04x} in {} bytes", byte_at(stored, 0), stored.size()));
    if (header->size != size)
      fail_at(1, fmt::format("the decoder's size argument {} to equal the header's size", size), std::to_string(header->size));
    return Decoder(stored, *header, produce).run();
  });
}

Result<std::vector<std::byte>> lz_decompress(std::span<const std::byte> stored, std::uint64_t size, std::uint64_t produce) {
  auto decoded = lz_decode(stored, size, produce);
  if (!decoded.ok()) return decoded.error();
  return std::move(decoded.value().bytes);
}

std::vector<std::byte> lz10_compress(std::span<const std::byte> plain) { return compress(plain, kLz10Type); }

std::vector<std::byte> lz11_compress(std::span<const std::byte> plain) { return compress(plain, kLz11Type); }

namespace {

std::optional<std::uint64_t> sniff_lz(std::span<const std::byte> stored, LzType type) {
  const auto header = read_lz_header(stored);
  if (!header || header->type != type) return std::nullopt;
  return header->size;
}

}  // namespace

const Codec kLz10Codec{"lz10", "Nintendo DS LZ10 (BIOS LZ77), inside NARC and ROM files", lz_decompress, false,
                       [](std::span<const std::byte> stored) { return sniff_lz(stored, LzType::lz10); }};
const Codec kLz11Codec{"lz11", "Nintendo DS LZ11 (BIOS LZ77 with longer copies), inside NARC and ROM files",
                       lz_decompress, false,
                       [](std::span<const std::byte> stored) { return sniff_lz(stored, LzType::lz11); }};

Compression lz_codec(const LzHeader& header) { return header.type == LzType::lz10 ? &kLz10Codec : &kLz11Codec; }

}  // namespace animdex::lz
