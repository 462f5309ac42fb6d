#include "containers/ciso/ciso_container.h"

#include <algorithm>
#include <fmt/format.h>
#include <string_view>

#include "containers/gcm/gcm_container.h"
#include "core/byte_reader.h"
#include "core/parse_error.h"

namespace animdex::ciso {

namespace {

constexpr std::string_view kMagic = "CISO";

bool has_magic(const ByteReader& head) {
  if (!head.contains(0, kMagic.size())) return false;
  for (std::size_t i = 0; i < kMagic.size(); ++i)
    if (head.u8(i) != static_cast<unsigned char>(kMagic[i])) return false;
  return true;
}

// What the view must be for a GameCube listing; a precise refusal otherwise (offsets in the view).
void require_gamecube_disc(const ByteSource& disc) {
  const std::vector<std::byte> head = disc.read_vector(0, std::min<std::uint64_t>(disc.size(), gcm::kMagicOffset + 4));
  const ByteReader reader(head);
  if (has_magic(reader))
    fail_at(0, "the disc a CISO holds (list() reads the module's view, not the raw CISO)", "the CISO header");
  if (!reader.contains(gcm::kMagicOffset, 4))
    fail_at(0, "a GameCube disc inside the CISO", fmt::format("a view of {} bytes", disc.size()));
  if (reader.u32be(gcm::kMagicOffset) == gcm::kGameCubeMagic) return;
  if (reader.u32be(gcm::kWiiMagicOffset) == gcm::kWiiMagic)
    fail_at(gcm::kWiiMagicOffset, "a GameCube disc inside the CISO (Wii partitions are encrypted and not read)",
            fmt::format("the Wii magic {:#010x}", gcm::kWiiMagic));
  fail_at(gcm::kMagicOffset,
          fmt::format("a GameCube disc inside the CISO (magic {:#010x} at 0x1C of the disc)", gcm::kGameCubeMagic),
          fmt::format("{:#010x}", reader.u32be(gcm::kMagicOffset)));
}

}  // namespace

bool detect_ciso(std::span<const std::byte> head, std::uint64_t /*size*/) { return has_magic(ByteReader(head)); }

CisoSource::CisoSource(std::shared_ptr<const ByteSource> raw) : raw_(std::move(raw)) {
  const std::uint64_t raw_size = raw_->size();
  if (raw_size < kHeaderSize)
    fail_at(0, fmt::format("a {:#x}-byte CISO header", kHeaderSize), fmt::format("a file of {} bytes", raw_size));
  const std::vector<std::byte> header_bytes = raw_->read_vector(0, kHeaderSize);
  const ByteReader header(header_bytes);
  if (!has_magic(header)) fail_at(0, "the magic 'CISO'", fmt::format("{:#010x}", header.u32be(0)));
  block_size_ = header.u32le(kBlockSizeOffset);
  if (block_size_ < kMinBlockSize || block_size_ > kMaxBlockSize)
    fail_at(kBlockSizeOffset, "a block size of 32 KiB to 16 MiB (u32 little-endian)", fmt::format("{}", block_size_));
  stored_index_.resize(kMapSize);
  for (std::uint64_t block = 0; block < kMapSize; ++block) {
    const std::uint8_t flag = header.u8(kMapOffset + block);
    if (flag > 1) fail_at(kMapOffset + block, "a map byte 0 (absent) or 1 (present)", fmt::format("{:#04x}", flag));
    stored_index_[block] = flag == 1 ? static_cast<std::uint32_t>(present_blocks_++) : kAbsent;
  }
  complete_blocks_ = std::min<std::uint64_t>(present_blocks_, (raw_size - kHeaderSize) / block_size_);
  if (complete_blocks_ < present_blocks_) {
    first_cut_block_ = static_cast<std::uint64_t>(
        std::find(stored_index_.begin(), stored_index_.end(), static_cast<std::uint32_t>(complete_blocks_)) -
        stored_index_.begin());
    next_present_.resize(kMapSize + 1, static_cast<std::uint32_t>(kMapSize));
    for (std::uint64_t block = kMapSize; block-- > 0;)
      next_present_[block] = stored_index_[block] != kAbsent ? static_cast<std::uint32_t>(block) : next_present_[block + 1];
  }
}

// The present blocks must all be in the file (containers.md 2): the error names the first one cut short.
ParseError CisoSource::cut_error(std::uint64_t block) const {
  const std::uint64_t raw_size = raw_->size();
  return ParseError{kHeaderSize + complete_blocks_ * block_size_,
                    fmt::format("{} present blocks of {} bytes after the header ({:#x} bytes in all)", present_blocks_,
                                block_size_, kHeaderSize + present_blocks_ * block_size_),
                    fmt::format("a {:#x}-byte file: present block {} (disc block {}) is cut short", raw_size,
                                stored_index_[block], block)};
}

// Blocks are stored in disc order, so every present block from first_cut_block_ on is cut off.
std::optional<ParseError> CisoSource::cut_in(std::uint64_t offset, std::uint64_t length) const {
  if (first_cut_block_ >= kMapSize || length == 0 || !contains(offset, length)) return std::nullopt;
  const std::uint64_t last = (offset + length - 1) / block_size_;
  const std::uint64_t present = next_present_[std::max(offset / block_size_, first_cut_block_)];
  if (present <= last) return cut_error(present);
  return std::nullopt;
}

std::uint64_t CisoSource::read_run(std::uint64_t offset, std::span<std::byte> out) const {
  std::uint64_t block = offset / block_size_;
  const std::uint64_t within = offset % block_size_;
  const std::uint32_t first = stored_index_[block];
  std::uint64_t length = std::min<std::uint64_t>(block_size_ - within, out.size());
  // Consecutive present blocks are consecutive in the file, so one read covers them.
  for (++block; length < out.size() && block < kMapSize; ++block) {
    const std::uint32_t stored = stored_index_[block];
    const bool continues = first == kAbsent ? stored == kAbsent : stored == first + (block - offset / block_size_);
    if (!continues) break;
    length = std::min<std::uint64_t>(length + block_size_, out.size());
  }
  const auto piece = out.first(static_cast<std::size_t>(length));
  if (first == kAbsent) std::fill(piece.begin(), piece.end(), std::byte{0});
  else if (first >= complete_blocks_) throw ParseFailure(cut_error(offset / block_size_));
  else raw_->read(kHeaderSize + std::uint64_t{first} * block_size_ + within, piece);
  return length;
}

void CisoSource::read(std::uint64_t offset, std::span<std::byte> out) const {
  if (!contains(offset, out.size()))
    fail_at(offset, fmt::format("{} bytes inside the {}-byte disc of the CISO", out.size(), size()),
            fmt::format("{} bytes at {:#x}", out.size(), offset));
  for (std::uint64_t done = 0; done < out.size();) done += read_run(offset + done, out.subspan(done));
}

Result<std::shared_ptr<const ByteSource>> open_ciso(std::shared_ptr<const ByteSource> raw) {
  return catch_parse_failure<std::shared_ptr<const ByteSource>>(
      [&] { return std::shared_ptr<const ByteSource>(std::make_shared<const CisoSource>(std::move(raw))); });
}

Result<MemberList> list_ciso(const ContainerInput& input, const ContainerLimits& limits) {
  const Result<bool> disc = catch_parse_failure<bool>([&] {
    require_gamecube_disc(input.table);
    return true;
  });
  if (!disc.ok()) return disc.error();
  auto listed = gcm::list_gcm(input, limits);
  // A CISO cut short: the members in its missing blocks are errors of their own, the rest read.
  const auto* ciso = dynamic_cast<const CisoSource*>(&input.table);
  if (!listed.ok() || !ciso || ciso->complete_blocks() == ciso->present_blocks()) return listed;
  MemberList list = std::move(listed).value();
  std::uint64_t lost = 0;
  for (auto& member : list.members)
    if (!member.error)
      if (auto cut = ciso->cut_in(member.offset, member.stored_size)) {
        member.error = std::move(cut);
        ++lost;
      }
  list.warnings.push_back(fmt::format("the CISO file holds {} of its {} present blocks (cut short?): {} members lie "
                                      "in the missing ones",
                                      ciso->complete_blocks(), ciso->present_blocks(), lost));
  return list;
}

ContainerModule container_module() {
  ContainerModule module;
  module.id = "ciso";
  module.description = "CISO compressed GameCube image: the files of the disc its blocks make";
  module.detect = detect_ciso;
  module.list = list_ciso;
  module.view = open_ciso;
  return module;
}

}  // namespace animdex::ciso
