#pragma once
// A path the user gives a verb: a file, or a member inside a disc image or archive written as the
// index stores it (`gnt4.iso/fpack/chr/nar1000.fpk/chr/nar/0000.mot`), nested to any depth.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "containers/container.h"
#include "core/byte_buffer.h"

namespace animdex {

struct InputListing;

struct OpenedInput {
  std::shared_ptr<const ByteSource> bytes;  // the content (a member decompressed), read by range
  std::string name;                         // its file or member name (for detection by extension)
  std::optional<Member> member;             // how it is stored, when it is a member
  Compression compression = nullptr;  // as found (a Nitro member may prove LZ)
  std::filesystem::path file;               // the outermost file on disk
  // A member's container: its listing and module (where a companion such as KH2.IMG is found).
  std::shared_ptr<const InputListing> parent;
  const ContainerModule* parent_module = nullptr;
};

// Opens `given` as the indexer does: a whole file stored LZ10/LZ11 is its decoded content
// (open_whole_file_lz), so its members can be named too; on failure, a message that says which part of the path is wrong and what exists.
std::variant<OpenedInput, std::string> open_input(const std::filesystem::path& given, const ContainerLimits& limits = {});

// The members of a container, listed as the index lists them (a companion found beside it). On
// failure, why.
struct InputListing {
  std::shared_ptr<const ByteSource> data;
  std::vector<Member> members;
  std::vector<std::string> warnings;
};
// A verb's whole input (a file, or a member: see open_input), at most `max_bytes`. `error` says
// why not (a missing member, a FIFO, over the limit); `bytes` is empty then.
struct InputBytes {
  ByteBuffer bytes;
  std::string error;
  Compression compression = nullptr;  // a whole file stored LZ: `bytes` are decoded
};
InputBytes read_input_bytes(const std::filesystem::path& given, std::uint64_t max_bytes);

// The container module that claims `input` (nullptr: not a container, or unreadable).
const ContainerModule* input_container(const OpenedInput& input);

// `input` must be a container; the message says what it is otherwise.
std::variant<InputListing, std::string> list_input(const OpenedInput& input, const ContainerLimits& limits = {});

}  // namespace animdex
