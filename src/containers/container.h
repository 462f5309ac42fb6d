#pragma once
// The small interface every container module implements: detect from bytes -> list members ->
// the framework opens a member (reads its stored range, decompresses it) and hands it to detection
// again, so containers nest (disc image -> FPK -> PRS member -> .mot). A container folder under
// src/containers/<name>/ holds its reader, its writer (for tests), its notes and its fuzz target.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "containers/byte_source.h"
#include "core/result.h"

namespace animdex {

// A compression a container stores members with, registered by the container folder that owns it
// (container_registry.cpp's list of codecs): adding one touches that folder and that list only;
// files.compression holds the id, with no closed list in the schema.
struct Codec {
  std::string_view id;           // files.compression, e.g. "prs"
  std::string_view description;  // one line for `animdex formats` and the schema page
  // `size` bytes of `stored` decompressed; at most `produce` come back (a head for detection).
  // Errors: offset in `stored`.
  Result<std::vector<std::byte>> (*decompress)(std::span<const std::byte> stored, std::uint64_t size,
                                               std::uint64_t produce) = nullptr;
  // The stream runs backwards, so even a head needs all of it (KH2's); else a head needs at most 4
  // stored bytes per byte wanted plus a header (every forward token makes at least one byte from at
  // most 3 bytes and 2 flag bits).
  bool backward = false;
  // For members a container cannot say are compressed (Member::may_be_compressed, DS archives): the
  // size the stream declares when `stored` starts like one of this codec's; nullptr: never guessed.
  std::optional<std::uint64_t> (*sniff)(std::span<const std::byte> stored) = nullptr;
};

// How a member is stored: the codec, or nullptr when stored as it is.
using Compression = const Codec*;
std::string_view compression_name(Compression compression);  // the codec's id, or "none"

// Caps that keep a hostile container from taking the machine (each failure is a clear error).
struct ContainerLimits {
  std::uint32_t max_depth = 8;                         // containers inside containers
  std::uint64_t max_member_size = 64ULL << 20;         // decompressed bytes of one compressed member
  // Per walked file (one ContainerBudget, container_budget.h, which scales the first two down for a
  // small file): decompressed bytes (peeks included), members listed, nesting included, and bytes of
  // compressed containers held open at once while their members are walked.
  std::uint64_t max_total_decompressed = 16ULL << 30;
  std::uint64_t max_members = 1'000'000;
  std::uint64_t max_held_decompressed = 64ULL << 20;
  std::uint64_t max_table_size = 64ULL << 20;          // bytes of a member table (FST, FNT, IDX) read at once
};

struct Member {
  std::string path;           // inside the container, '/'-separated, no leading '/'; names restored
                              // where the container truncates them (FPK: hr/ -> chr/)
  std::string stored_name;    // files.member_name: the name as stored (the truncated FPK name, NARC
                              // index when nameless, KH2 "@HHHHHHHH-HHHH"), else the path
  std::uint64_t offset = 0;   // of the stored bytes, from the start of the container's data source
  std::uint64_t stored_size = 0;  // bytes stored (compressed size when compressed)
  std::uint64_t size = 0;     // bytes after decompression (== stored_size when stored raw)
  Compression compression = nullptr;
  bool may_be_compressed = false;  // DS archives: a raw member may prove compressed (Codec::sniff)
  // An entry the table lists but that breaks a rule (a range outside the data, a bad field): it is
  // still a member, so it is one error row of its own and its siblings are read (issue 35). The
  // fields above hold what could be read; opening it gives this error.
  std::optional<ParseError> error;
};

struct MemberList {
  std::vector<Member> members;        // in the container's own order
  std::vector<std::string> warnings;  // things worth knowing that do not stop the listing
};

// What list() sees. `data` is where the members' bytes live: the container itself for most
// formats, a companion file for a table-only container (KH2.IDX lists, KH2.IMG holds).
struct ContainerInput {
  const ByteSource& table;
  const ByteSource& data;
  std::string_view name;  // the container's own file or member name (for messages)
};

// How many leading bytes container detection sees: through sector 16 of a 2048-byte-sector image
// (ISO9660's first volume descriptor) and CISO's whole 0x8000-byte header.
inline constexpr std::size_t kContainerDetectBytes = 0x8800;

struct ContainerModule {
  std::string_view id;           // files.format, e.g. "gcm", "fpk", "narc"
  std::string_view description;  // one line for --help and docs

  // Is this container ours? Same contract as FormatModule::detect: cheap, from the first bytes
  // (up to kContainerDetectBytes).
  bool (*detect)(std::span<const std::byte> head, std::uint64_t size);

  // The member table, validated; members' ranges lie inside input.data. Pure: no I/O but through
  // the sources. Errors name the offset in the table.
  Result<MemberList> (*list)(const ContainerInput& input, const ContainerLimits& limits);

  // Optional: the logical bytes behind a container's raw bytes (CISO: the disc image its blocks make).
  // Members' offsets are in the view. nullptr: the raw bytes are the view.
  Result<std::shared_ptr<const ByteSource>> (*view)(std::shared_ptr<const ByteSource> raw) = nullptr;

  // Optional: a table-only container names the extension of the companion that holds its data,
  // found beside it with the same stem (KH2.IDX -> KH2.IMG). Empty: data is the container itself.
  std::string_view companion_extension = {};
  // The files.format its companion is recorded with (KH2.IMG: "kh2_img"): not parsed as a file of
  // its own, since its contents are this container's members.
  std::string_view companion_format = {};
  // Optional: detection also requires this file-name extension (lower case, e.g. ".idx"), for a
  // format whose bytes alone are too weak a signature.
  std::string_view required_extension = {};
  // Optional: for a file named with `usual_extension` that detect() refuses, the check that failed
  // (NDS: "expected the Nintendo logo CRC 0xCF56"), so its `unknown` row says why it is not this
  // container rather than only "no known format" (issue 35).
  std::string_view usual_extension = {};
  std::optional<ParseError> (*why_not)(std::span<const std::byte> head, std::uint64_t size) = nullptr;
};

}  // namespace animdex
