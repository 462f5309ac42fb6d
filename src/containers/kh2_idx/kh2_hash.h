#pragma once
// KH2.IDX names its entries only by two hashes of the path (containers.md section 4, "Name
// hashes"): the exact path bytes, case-sensitive, '/'-separated, no leading slash.
#include <cstdint>
#include <string>
#include <string_view>

namespace animdex::kh2_idx {

// CRC-32/BZIP2 of the bytes: poly 0x04C11DB7, init 0xFFFFFFFF, MSB first, final complement.
// kh2_hash32("test") == 0x338BCFAC.
std::uint32_t kh2_hash32(std::string_view name);

// CRC-16/GENIBUS (poly 0x1021, init 0xFFFF, MSB first, final complement) over the bytes in
// reverse order, last byte first. kh2_hash16("test") == 0xB82F.
std::uint16_t kh2_hash16(std::string_view name);

// "@HHHHHHHH-HHHH" (upper-case hex): how an entry whose name is not known is printed and stored.
std::string kh2_hash_name(std::uint32_t hash32, std::uint16_t hash16);

}  // namespace animdex::kh2_idx
