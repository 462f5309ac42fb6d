#include "containers/ciso/ciso_writer.h"

#include <algorithm>
#include <stdexcept>

#include "containers/ciso/ciso_container.h"

namespace animdex::ciso {

std::vector<std::byte> build_ciso(std::span<const std::byte> disc, std::uint32_t block_size) {
  if (block_size < kMinBlockSize || block_size > kMaxBlockSize)
    throw std::invalid_argument("build_ciso: block size outside 32 KiB..16 MiB");
  const std::uint64_t block_count = (disc.size() + block_size - 1) / block_size;
  if (block_count > kMapSize) throw std::invalid_argument("build_ciso: the disc needs more than 0x7FF8 blocks");
  std::vector<std::byte> image(kHeaderSize);
  const char magic[4] = {'C', 'I', 'S', 'O'};
  for (std::size_t i = 0; i < 4; ++i) image[i] = static_cast<std::byte>(magic[i]);
  for (std::size_t i = 0; i < 4; ++i) image[kBlockSizeOffset + i] = static_cast<std::byte>(block_size >> (8 * i));
  for (std::uint64_t block = 0; block < block_count; ++block) {
    const auto bytes = disc.subspan(block * block_size, std::min<std::uint64_t>(block_size, disc.size() - block * block_size));
    if (std::all_of(bytes.begin(), bytes.end(), [](std::byte b) { return b == std::byte{0}; })) continue;
    image[kMapOffset + block] = std::byte{1};
    image.insert(image.end(), bytes.begin(), bytes.end());
    image.resize(image.size() + (block_size - bytes.size()));  // a short last block is stored whole
  }
  return image;
}

}  // namespace animdex::ciso
