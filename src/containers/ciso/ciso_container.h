#pragma once
// CISO compressed disc images (containers.md section 2, "Compressed images"; Dolphin's
// CISOBlob): a 0x8000-byte header ("CISO", u32 little-endian block size, a map of 0x7FF8 bytes:
// 1 = block stored, 0 = block absent and read as zeros), then the present blocks in map order.
// The module's view is the disc the blocks make (CisoSource); its listing is the GameCube listing
// of that view.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "containers/byte_source.h"
#include "containers/container.h"

namespace animdex::ciso {

inline constexpr std::uint64_t kHeaderSize = 0x8000;
inline constexpr std::uint64_t kBlockSizeOffset = 4;
inline constexpr std::uint64_t kMapOffset = 8;
inline constexpr std::uint64_t kMapSize = kHeaderSize - kMapOffset;  // 0x7FF8 blocks
inline constexpr std::uint32_t kMinBlockSize = 32 << 10;
inline constexpr std::uint32_t kMaxBlockSize = 16 << 20;

// The magic "CISO" at 0.
bool detect_ciso(std::span<const std::byte> head, std::uint64_t size);

// The logical disc of a CISO, read by range: a read across several blocks assembles them, absent
// blocks read as zeros. Its size is the map's whole span, 0x7FF8 * block size, as Dolphin's
// GetDataSize: trailing blocks of zeros are absent, and a disc's files may lie in them (padding
// files), so stopping at the last present block would cut such files off.
class CisoSource final : public ByteSource {
 public:
  // Reads and validates the header of `raw` (magic, block size 32 KiB..16 MiB, map bytes 0/1).
  // Throws ParseFailure at the offset in `raw`. A file that ends before its present blocks (cut
  // short) is still a view: reading a block it lacks fails, naming the block (issue 35: a truncated
  // CISO keeps the members before the cut).
  explicit CisoSource(std::shared_ptr<const ByteSource> raw);
  std::uint64_t size() const override { return kMapSize * block_size_; }
  void read(std::uint64_t offset, std::span<std::byte> out) const override;

  std::uint32_t block_size() const { return block_size_; }
  std::uint64_t present_blocks() const { return present_blocks_; }
  // Present blocks wholly in the file (== present_blocks() unless the file is cut short).
  std::uint64_t complete_blocks() const { return complete_blocks_; }
  // Why [offset, offset + length) of the disc cannot be read (a present block it touches is cut
  // off; the error names the first), or nothing when it can. Constant time per call.
  std::optional<ParseError> cut_in(std::uint64_t offset, std::uint64_t length) const;

 private:
  static constexpr std::uint32_t kAbsent = UINT32_MAX;
  // Reads the run of blocks starting at logical `offset` that are stored one after another (or
  // are all absent), at most out.size() bytes; returns how many bytes it filled.
  std::uint64_t read_run(std::uint64_t offset, std::span<std::byte> out) const;

  std::shared_ptr<const ByteSource> raw_;
  std::uint32_t block_size_ = 0;
  std::uint64_t present_blocks_ = 0;
  std::uint64_t complete_blocks_ = 0;
  std::vector<std::uint32_t> stored_index_;  // per logical block: its place among the present ones, or kAbsent
  std::uint64_t first_cut_block_ = kMapSize;  // the first logical block whose stored copy is cut off
  std::vector<std::uint32_t> next_present_;    // when cut: per block, the first present block at or after it
  ParseError cut_error(std::uint64_t block) const;
};

// The view of the module: a CisoSource over `raw`, or the header's error (offset in `raw`).
Result<std::shared_ptr<const ByteSource>> open_ciso(std::shared_ptr<const ByteSource> raw);

// The GameCube listing (gcm::list_gcm) of the view, which list() receives as input.table and
// input.data; a view that is not a GameCube disc (a Wii CISO, or the raw CISO by mistake) fails
// with an offset in the view.
Result<MemberList> list_ciso(const ContainerInput& input, const ContainerLimits& limits);

// id "ciso": detect_ciso, view = open_ciso, list = list_ciso.
ContainerModule container_module();

}  // namespace animdex::ciso
