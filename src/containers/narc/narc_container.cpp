#include "containers/narc/narc_container.h"

#include <cctype>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "containers/nitro_fnt.h"
#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::narc {

namespace {

constexpr std::uint64_t kHeaderSize = 0x10;
constexpr std::uint16_t kByteOrderMark = 0xFFFE;  // bytes FE FF
constexpr std::uint16_t kVersion = 0x0100;
constexpr std::uint16_t kChunkCount = 3;
constexpr std::uint64_t kChunkHeader = 8;     // tag + u32 size (the size includes these 8 bytes)
constexpr std::uint64_t kBtafFixed = 12;      // chunk header + u16 count + u16 reserved
constexpr std::uint64_t kBtafEntry = 8;       // u32 start, u32 end (from the GMIF data start)
constexpr std::uint64_t kMinBtnfSize = kChunkHeader + 8;  // the FNT's root entry

struct Chunk {
  std::uint64_t at = 0;
  std::uint64_t size = 0;
  std::uint64_t end() const { return at + size; }
  std::uint64_t data() const { return at + kChunkHeader; }
};

// A tag as text when it is printable, else its bytes in hex.
std::string describe_tag(std::span<const std::byte> bytes) {
  std::string text;
  for (std::byte b : bytes) {
    const auto c = std::to_integer<unsigned char>(b);
    if (!std::isprint(c)) {
      std::string hex;
      for (std::byte h : bytes) hex += fmt::format("{}{:02X}", hex.empty() ? "" : " ", std::to_integer<unsigned>(h));
      return hex;
    }
    text += static_cast<char>(c);
  }
  return "\"" + text + "\"";
}

class NarcReader {
 public:
  NarcReader(const ContainerInput& input, const ContainerLimits& limits)
      : source_(input.table), data_(input.data), limits_(limits), file_size_(input.table.size()) {}

  MemberList run() {
    check_header();
    const Chunk btaf = read_chunk(kHeaderSize, "BTAF", kBtafFixed);
    const std::uint64_t file_count = check_btaf(btaf);
    const Chunk btnf = read_chunk(btaf.end(), "BTNF", kMinBtnfSize);
    const Chunk gmif = read_chunk(btnf.end(), "GMIF", kChunkHeader);
    if (gmif.data() > limits_.max_table_size)
      fail_at(btnf.at + 4, fmt::format("at most {} bytes of header, BTAF and BTNF", limits_.max_table_size),
              fmt::format("{} bytes", gmif.data()));
    const auto table = source_.read_vector(0, gmif.data());
    const ByteReader in(table);
    // A broken name or record costs only the names it spoils (issue 35): the files are BTAF's.
    const auto names =
        nitro_fnt::walk_fnt(in.slice(btnf.data(), btnf.size - kChunkHeader), btnf.data(), file_count, limits_, nitro_fnt::FntFaults::skip);
    for (auto& warning : names.warnings) list_.warnings.push_back("BTNF: " + warning);
    add_members(in, btaf, gmif, file_count, names);
    return std::move(list_);
  }

 private:
  void check_header() {
    if (file_size_ < kHeaderSize)
      fail_at(0, "a NARC header of 16 bytes", fmt::format("{} bytes", file_size_));
    const auto header = source_.read_vector(0, kHeaderSize);
    const ByteReader in(header);
    if (in.ascii(0, 4) != "NARC") fail_at(0, "magic NARC", describe_tag(in.slice(0, 4)));
    if (in.u16le(4) != kByteOrderMark) fail_at(4, "byte-order mark FE FF", fmt::format("{:04X}", in.u16be(4)));
    if (in.u16le(6) != kVersion)
      list_.warnings.push_back(fmt::format("NARC version {:#06x} (every known archive has 0x0100)", in.u16le(6)));
    const std::uint32_t declared = in.u32le(8);
    if (declared > file_size_)
      fail_at(8, fmt::format("a file size at most the real length {}", file_size_), std::to_string(declared));
    if (declared < file_size_)
      list_.warnings.push_back(fmt::format("NARC header says {} bytes; {} trailing bytes after them", declared,
                                           file_size_ - declared));
    if (in.u16le(0x0C) != kHeaderSize) fail_at(0x0C, "header size 16", std::to_string(in.u16le(0x0C)));
    if (in.u16le(0x0E) != kChunkCount) fail_at(0x0E, "3 chunks (BTAF, BTNF, GMIF)", std::to_string(in.u16le(0x0E)));
  }

  // The chunk header at `at`: its tag, and a size of at least `min_size` that ends inside the file.
  Chunk read_chunk(std::uint64_t at, std::string_view tag, std::uint64_t min_size) const {
    if (!source_.contains(at, kChunkHeader))
      fail_at(at, fmt::format("the {} chunk header (8 bytes) inside the {}-byte file", tag, file_size_),
              "the end of the file");
    const auto header = source_.read_vector(at, kChunkHeader);
    const ByteReader in(header);
    if (in.ascii(0, 4) != tag) fail_at(at, fmt::format("chunk {}", tag), describe_tag(in.slice(0, 4)));
    const Chunk chunk{at, in.u32le(4)};
    if (chunk.size < min_size)
      fail_at(at + 4, fmt::format("a {} chunk size of at least {}", tag, min_size), std::to_string(chunk.size));
    if (!source_.contains(at, chunk.size))
      fail_at(at + 4, fmt::format("a {} chunk that ends inside the {}-byte file", tag, file_size_),
              fmt::format("{} bytes, ending at {}", chunk.size, chunk.end()));
    return chunk;
  }

  // BTAF: u16 file count F, u16 reserved, F (start, end) pairs; its size must be 12 + 8F.
  std::uint64_t check_btaf(const Chunk& btaf) const {
    const auto counts = source_.read_vector(btaf.at + kChunkHeader, 4);
    const std::uint64_t file_count = ByteReader(counts).u16le(0);
    if (file_count > limits_.max_members)
      fail_at(btaf.at + 8, fmt::format("at most {} members", limits_.max_members), std::to_string(file_count));
    if (btaf.size != kBtafFixed + kBtafEntry * file_count)
      fail_at(btaf.at + 4, fmt::format("a BTAF chunk size of 12 + 8 x {} files = {}", file_count,
                                       kBtafFixed + kBtafEntry * file_count),
              std::to_string(btaf.size));
    return file_count;
  }

  void add_members(const ByteReader& in, const Chunk& btaf, const Chunk& gmif, std::uint64_t file_count,
                   const nitro_fnt::FntListing& names) {
    const bool nameless = names.files.empty();
    std::size_t next_name = 0;
    std::uint64_t unnamed = 0;
    list_.members.reserve(file_count);
    for (std::uint64_t id = 0; id < file_count; ++id) {
      Member member = member_at(in, btaf.at + kBtafFixed + kBtafEntry * id, gmif);
      if (!nameless && next_name < names.files.size() && names.files[next_name].file_id == id) {
        member.path = names.files[next_name++].path;
      } else {
        member.path = std::to_string(id);
        unnamed += nameless ? 0 : 1;
      }
      member.stored_name = member.path;
      list_.members.push_back(std::move(member));
    }
    if (unnamed > 0)
      list_.warnings.push_back(fmt::format("{} of {} files have no name in BTNF; they are named by index", unnamed, file_count));
  }

  // One BTAF entry: start <= end <= the GMIF data size (containers.md section 3 "NARC"). A broken
  // one is a member with its error (issue 35): one error row, its siblings read.
  Member member_at(const ByteReader& in, std::uint64_t entry_at, const Chunk& gmif) const {
    const std::uint64_t start = in.u32le(entry_at), end = in.u32le(entry_at + 4);
    const std::uint64_t data_size = gmif.size - kChunkHeader;
    Member member;
    member.offset = gmif.data() + start;
    member.stored_size = member.size = end >= start ? end - start : 0;
    member.may_be_compressed = true;
    if (start > end)
      member.error = ParseError{entry_at, fmt::format("a member start at most its end {:#x}", end), fmt::format("{:#x}", start)};
    else if (end > data_size)
      member.error = ParseError{entry_at + 4, fmt::format("a member end inside the GMIF's {} data bytes", data_size),
                                fmt::format("{:#x}", end)};
    else if (!data_.contains(member.offset, member.stored_size))
      member.error = ParseError{entry_at, fmt::format("a member inside the {}-byte data source", data_.size()),
                                fmt::format("{} bytes at {:#x}", member.stored_size, member.offset)};
    return member;
  }

  const ByteSource& source_;
  const ByteSource& data_;
  const ContainerLimits& limits_;
  std::uint64_t file_size_;
  MemberList list_;
};

bool detect(std::span<const std::byte> head, std::uint64_t size) { return detect_narc(head, size); }

}  // namespace

bool detect_narc(std::span<const std::byte> head, std::uint64_t size) {
  if (size < kHeaderSize || head.size() < 6) return false;
  const ByteReader in(head);
  return in.ascii(0, 4) == "NARC" && in.u16le(4) == kByteOrderMark;
}

Result<MemberList> list_narc(const ContainerInput& input, const ContainerLimits& limits) {
  return catch_parse_failure<MemberList>([&] { return NarcReader(input, limits).run(); });
}

ContainerModule container_module() {
  ContainerModule module;
  module.id = "narc";
  module.description = "Nintendo DS NARC archive (BTAF/BTNF/GMIF; members may be LZ10/LZ11)";
  module.detect = detect;
  module.list = list_narc;
  return module;
}

}  // namespace animdex::narc
