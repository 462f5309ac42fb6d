#include "containers/kh2_idx/kh2_hash.h"

#include <array>
#include <fmt/format.h>

namespace animdex::kh2_idx {

namespace {

// Byte-at-a-time tables for the two MSB-first CRCs: the name table hashes 3 MB of paths once, so
// the bit loop of the note (section 4) is unrolled into 256 precomputed steps.
constexpr std::array<std::uint32_t, 256> crc32_msb_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    std::uint32_t crc = byte << 24;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 0x80000000U) ? (crc << 1) ^ 0x04C11DB7U : crc << 1;
    table[byte] = crc;
  }
  return table;
}

constexpr std::array<std::uint16_t, 256> crc16_msb_table() {
  std::array<std::uint16_t, 256> table{};
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    std::uint32_t crc = byte << 8;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 0x8000U) ? ((crc << 1) ^ 0x1021U) & 0xFFFFU : (crc << 1) & 0xFFFFU;
    table[byte] = static_cast<std::uint16_t>(crc);
  }
  return table;
}

constexpr auto kCrc32Table = crc32_msb_table();
constexpr auto kCrc16Table = crc16_msb_table();

}  // namespace

std::uint32_t kh2_hash32(std::string_view name) {
  std::uint32_t crc = 0xFFFFFFFFU;
  for (const char c : name) crc = (crc << 8) ^ kCrc32Table[((crc >> 24) ^ static_cast<unsigned char>(c)) & 0xFF];
  return ~crc;
}

std::uint16_t kh2_hash16(std::string_view name) {
  std::uint16_t crc = 0xFFFF;
  for (auto it = name.rbegin(); it != name.rend(); ++it)  // last byte first (section 4)
    crc = static_cast<std::uint16_t>((crc << 8) ^ kCrc16Table[((crc >> 8) ^ static_cast<unsigned char>(*it)) & 0xFF]);
  return static_cast<std::uint16_t>(~crc);
}

std::string kh2_hash_name(std::uint32_t hash32, std::uint16_t hash16) {
  return fmt::format("@{:08X}-{:04X}", hash32, hash16);
}

}  // namespace animdex::kh2_idx
