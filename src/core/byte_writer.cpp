#include "core/byte_writer.h"

#include <stdexcept>

namespace animdex {

void ByteWriter::patch_u32(std::size_t offset, std::uint32_t value, Endian order) {
  if (offset + 4 > bytes_.size()) throw std::out_of_range("ByteWriter::patch_u32 past the end");
  for (std::size_t i = 0; i < 4; ++i) {
    const std::size_t shift = order == Endian::big ? (3 - i) * 8 : i * 8;
    bytes_[offset + i] = static_cast<std::byte>((value >> shift) & 0xFF);
  }
}

}  // namespace animdex
