#include "containers/member_bytes.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <fmt/format.h>

#include "containers/container_registry.h"
#include "core/parse_error.h"

namespace animdex {

std::string_view compression_name(Compression compression) { return compression ? compression->id : "none"; }

Result<std::vector<std::byte>> decompress(Compression compression, std::span<const std::byte> stored,
                                          std::uint64_t size, std::uint64_t produce) {
  if (compression) return compression->decompress(stored, size, produce);
  const auto count = static_cast<std::size_t>(std::min<std::uint64_t>({size, produce, stored.size()}));
  return std::vector<std::byte>(stored.begin(), stored.begin() + static_cast<std::ptrdiff_t>(count));
}

std::vector<std::byte> read_head(const ByteSource& source, std::uint64_t count) {
  return source.read_vector(0, std::min(count, source.size()));
}

namespace {

// The first registered codec whose sniff claims the start of `stored`.
const Codec* sniffed_codec(std::span<const std::byte> stored) {
  for (const Codec* codec : registered_codecs())
    if (codec->sniff && codec->sniff(stored)) return codec;
  return nullptr;
}

void charge(DecompressionTally& tally, std::uint64_t bytes, std::uint64_t offset) {
  const std::uint64_t total = tally.bytes.fetch_add(bytes) + bytes;
  if (total > tally.limit)
    fail_at(offset, fmt::format("at most {} decompressed bytes in all the containers of one file", tally.limit),
            fmt::format("{} with this member", total));
}

void check_member_size(const Member& member, const ContainerLimits& limits) {
  if (member.size > limits.max_member_size)
    fail_at(member.offset, fmt::format("a member of at most {} bytes once decompressed", limits.max_member_size),
            fmt::format("{} bytes declared for {}", member.size, member.path));
  if (member.stored_size > limits.max_member_size + 4096)  // KH2 stores whole 2048-byte blocks
    fail_at(member.offset, fmt::format("at most {} stored bytes", limits.max_member_size),
            fmt::format("{} bytes for {}", member.stored_size, member.path));
}

// A raw member that a codec's sniff claims (DS archives do not say which members are LZ): decoded
// when it really is one, to something `known_content` recognises (else it stays raw, and a member
// that only starts like a stream is simply not a known format).
// The whole stream is decoded even for a peek at the head (a stream that fails later is not one),
// so the whole size is charged, before decoding: a peek costs what a read costs (issue 35).
std::optional<OpenedMember> try_sniffed(std::span<const std::byte> stored, const ContainerLimits& limits,
                                        DecompressionTally& tally, std::uint64_t offset, ContentTest known_content) {
  const Codec* codec = sniffed_codec(stored);
  if (!codec) return std::nullopt;
  const auto size = codec->sniff(stored);
  if (!size || *size > limits.max_member_size) return std::nullopt;
  charge(tally, *size, offset);
  auto decoded = codec->decompress(stored, *size, UINT64_MAX);
  if (!decoded.ok() || !known_content(decoded.value())) return std::nullopt;
  OpenedMember opened;
  opened.compression = codec;
  opened.size = decoded.value().size();
  opened.bytes = std::make_shared<MemorySource>(std::move(decoded).value());
  return opened;
}

// A head of a member compressed with a forward stream (PRS, LZ) needs only the start of the stored
// bytes: every token makes at least one byte from at most 3 bytes and 2 flag bits (PRS's long copy
// of length 1; LZ's tokens make 3 bytes or more from at most 4), so `wanted` bytes never need more
// than 4 stored bytes each, plus a header. A backward stream (KH2's) needs all of it.
std::uint64_t stored_bytes_needed(const Member& member, std::uint64_t wanted) {
  if (wanted == member.size || member.compression->backward) return member.stored_size;
  return std::min(member.stored_size, wanted * 4 + 64);
}

}  // namespace

Result<OpenedMember> open_member(const std::shared_ptr<const ByteSource>& data, const Member& member,
                                 const ContainerLimits& limits, DecompressionTally& tally, ContentTest known_content,
                                 std::uint64_t produce) {
  if (member.error) return *member.error;
  return catch_parse_failure<OpenedMember>([&] {
    if (!data->contains(member.offset, member.stored_size))
      fail_at(member.offset, fmt::format("{} stored bytes inside the container's {} bytes", member.stored_size, data->size()),
              fmt::format("{} ends at {}", member.path, member.offset + member.stored_size));
    OpenedMember opened;
    if (!member.compression) {
      opened.bytes = std::make_shared<RangeSource>(data, member.offset, member.stored_size);
      opened.size = member.stored_size;
      if (member.may_be_compressed && member.stored_size >= 4 && member.stored_size <= limits.max_member_size &&
          sniffed_codec(data->read_vector(member.offset, std::min<std::uint64_t>(member.stored_size, 16)))) {
        const auto stored = data->read_vector(member.offset, member.stored_size);
        if (auto sniffed = try_sniffed(stored, limits, tally, member.offset, known_content)) return std::move(*sniffed);
      }
      return opened;
    }
    check_member_size(member, limits);
    const std::uint64_t wanted = std::min(member.size, produce);
    // Charged before decoding, what the decoder works through: a head of a forward stream (PRS, LZ)
    // decodes only the head; KH2's backward stream decodes all of it whatever is kept. Peeks for
    // detection were free, so a table of entries sharing one huge stream decoded 51 GiB (issue 35).
    charge(tally, member.compression->backward ? member.size : wanted, member.offset);
    const auto stored = data->read_vector(member.offset, stored_bytes_needed(member, wanted));
    auto decoded = decompress(member.compression, stored, member.size, wanted);
    if (!decoded.ok()) {
      const auto& error = decoded.error();
      fail_at(error.offset, error.expected,
              fmt::format("{} ({} stream of {} at container offset {:#x})", error.found, compression_name(member.compression),
                          member.path, member.offset + error.offset));
    }
    opened.compression = member.compression;
    opened.size = member.size;
    opened.head_only = wanted < member.size;
    opened.bytes = std::make_shared<MemorySource>(std::move(decoded).value());
    return opened;
  });
}

std::optional<WholeFileCompressed> open_whole_file_compressed(const std::shared_ptr<const ByteSource>& file,
                                                              std::string_view name, const ContainerLimits& limits,
                                                              DecompressionTally& tally, ContentTest known_content) {
  const auto head = read_head(*file, kContainerDetectBytes);
  if (!sniffed_codec(head) || detect_container(head, file->size(), name)) return std::nullopt;
  WholeFileCompressed whole;
  whole.member.stored_size = whole.member.size = file->size();
  whole.member.may_be_compressed = true;
  auto opened = open_member(file, whole.member, limits, tally, known_content);
  if (!opened.ok() || !opened.value().compression) return std::nullopt;
  whole.member.compression = opened.value().compression;
  whole.member.size = opened.value().size;
  whole.content = std::move(opened).value();
  return whole;
}

}  // namespace animdex
