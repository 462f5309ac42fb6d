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

// The present blocks must all be in the file (containers.md 2): name the first one cut short.
[[noreturn]] void fail_short_file(std::uint64_t raw_size, std::uint32_t block_size, std::uint64_t present,
                                  const std::vector<std::uint32_t>& stored_index) {
  const std::uint64_t complete = (raw_size - kHeaderSize) / block_size;
  const auto cut = std::find(stored_index.begin(), stored_index.end(), static_cast<std::uint32_t>(complete));
  fail_at(kHeaderSize + complete * block_size,
          fmt::format("{} present blocks of {} bytes after the header ({:#x} bytes in all)", present, block_size,
                      kHeaderSize + present * block_size),
          fmt::format("a {:#x}-byte file: present block {} (disc block {}) is cut short", raw_size, complete,
                      cut - stored_index.begin()));
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
  if (raw_size - kHeaderSize < present_blocks_ * block_size_)
    fail_short_file(raw_size, block_size_, present_blocks_, stored_index_);
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
  return gcm::list_gcm(input, limits);
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
