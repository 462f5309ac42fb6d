#pragma once
// Opening a container's member: its stored range read from the container's data, decompressed
// within the caps. Pure like the readers (bytes come only through ByteSources).
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <span>
#include <string>
#include <vector>

#include "containers/container.h"

namespace animdex {

// Decompressed bytes charged against one walked file's total cap (ContainerBudget, from
// ContainerLimits::max_total_decompressed); its members may be opened on several threads at once.
struct DecompressionTally {
  explicit DecompressionTally(std::uint64_t limit_bytes) : limit(limit_bytes) {}
  std::atomic<std::uint64_t> bytes{0};
  const std::uint64_t limit;
};

// `size` bytes of `stored` decompressed as `compression` says (none: a copy of the first `produce`
// bytes); at most `produce` bytes come back (a head for detection). Errors: offset in `stored`.
Result<std::vector<std::byte>> decompress(Compression compression, std::span<const std::byte> stored,
                                          std::uint64_t size, std::uint64_t produce = UINT64_MAX);

// Does a decoded stream hold something animdex knows (a format or a container)? A sniffed member
// is kept compressed only then. Containers cannot know formats: the layer above both passes it
// (detect/identify.h, known_content).
using ContentTest = bool (*)(std::span<const std::byte> head);

struct OpenedMember {
  std::shared_ptr<const ByteSource> bytes;  // the member's content, decompressed (a range of the
                                            // container when stored raw: nothing is read yet)
  Compression compression = nullptr;        // as found: a raw DS member may prove LZ10/LZ11
  std::uint64_t size = 0;                   // content bytes (== bytes->size() unless only a head was asked)
  bool head_only = false;                   // `bytes` holds only the first bytes (open_member's `produce`)
};

// Opens `member`, whose stored bytes lie in `data`. A compressed member is decompressed whole, or
// only its first `produce` bytes (kept in memory); a raw one is a range of `data`, except that a
// member marked may_be_compressed whose bytes a codec sniffs and decodes to `known_content` is
// opened decompressed (containers.md section 3, "Detecting a compressed member"). Caps: the
// member's size (limits.max_member_size) and the walked file's running total (`tally`).
Result<OpenedMember> open_member(const std::shared_ptr<const ByteSource>& data, const Member& member,
                                 const ContainerLimits& limits, DecompressionTally& tally, ContentTest known_content,
                                 std::uint64_t produce = UINT64_MAX);

// A whole file compressed with LZ10/LZ11 (a DS file outside any archive, containers.md section 3):
// opened like a DS member, so it counts as compressed only when it is not a container as it is, a
// codec sniffs it and it decodes to `known_content`. `member` describes it as stored (compression,
// decoded size); `content` is the decoded bytes. The indexer and every verb open a file through
// this, so what `index` reads, `info`, `pose`, `ls` and `extract` read (issue 35).
struct WholeFileCompressed {
  Member member;
  OpenedMember content;
};
std::optional<WholeFileCompressed> open_whole_file_compressed(const std::shared_ptr<const ByteSource>& file,
                                                              std::string_view name, const ContainerLimits& limits,
                                                              DecompressionTally& tally, ContentTest known_content);

// The first min(size, count) bytes of a source.
std::vector<std::byte> read_head(const ByteSource& source, std::uint64_t count);

}  // namespace animdex
