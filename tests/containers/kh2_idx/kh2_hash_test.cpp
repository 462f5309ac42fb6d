// The name hashes of containers.md section 4 (its four vectors) and the embedded name table.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "containers/container_test_support.h"
#include "containers/kh2_idx/kh2_hash.h"
#include "containers/kh2_idx/kh2_names.h"

using namespace animdex::kh2_idx;

TEST_CASE("KH2 name hashes: the note's vectors", "[kh2_idx][hash]") {
  CHECK(kh2_hash32("test") == 0x338BCFACU);
  CHECK(kh2_hash16("test") == 0xB82F);
  CHECK(kh2_hash32("hello world!") == 0xFD8495B7U);
  CHECK(kh2_hash16("hello world!") == 0x0907);
  CHECK(kh2_hash32("00battle.bin") == 0x2029C445U);
  CHECK(kh2_hash16("00battle.bin") == 0x176F);
  CHECK(kh2_hash32("obj/B_LK120_RAW.mset") == 0x10303F6FU);
  CHECK(kh2_hash16("obj/B_LK120_RAW.mset") == 0xF325);
}

TEST_CASE("KH2 name hashes: the bit-by-bit definition and the printed form", "[kh2_idx][hash]") {
  // The note's loops (MSB-first CRCs, the 16-bit one over the reversed bytes) against the tables.
  auto bitwise32 = [](std::string_view text) {
    std::uint32_t crc = 0xFFFFFFFFU;
    for (unsigned char c : text) {
      crc ^= static_cast<std::uint32_t>(c) << 24;
      for (int bit = 0; bit < 8; ++bit) crc = (crc & 0x80000000U) ? (crc << 1) ^ 0x04C11DB7U : crc << 1;
    }
    return ~crc;
  };
  auto bitwise16 = [](std::string_view text) {
    std::uint32_t crc = 0xFFFF;
    for (auto it = text.rbegin(); it != text.rend(); ++it) {
      crc ^= static_cast<std::uint32_t>(static_cast<unsigned char>(*it)) << 8;
      for (int bit = 0; bit < 8; ++bit) crc = ((crc & 0x8000U) ? (crc << 1) ^ 0x1021U : crc << 1) & 0xFFFFU;
    }
    return static_cast<std::uint16_t>(~crc);
  };
  for (std::string text : {"", "a", "anm/fm/al/f_al000/EAL15201E.anb", "\xFF\x80\x01 binary"}) {
    CHECK(kh2_hash32(text) == bitwise32(text));
    CHECK(kh2_hash16(text) == bitwise16(text));
  }
  CHECK(kh2_hash_name(0x10303F6F, 0xF325) == "@10303F6F-F325");
  CHECK(kh2_hash_name(0xAB, 0xC) == "@000000AB-000C");
}

TEST_CASE("KH2 name table: the embedded list", "[kh2_idx][names]") {
  CHECK(kh2_known_name_count() == 111680);
  const std::string name = "obj/B_LK120_RAW.mset";
  REQUIRE(kh2_name_for(kh2_hash32(name), kh2_hash16(name)) == std::optional<std::string_view>(name));
  CHECK(kh2_name_for(0x10303F6F, 0xF325) == std::optional<std::string_view>(name));
  CHECK_FALSE(kh2_name_for(0x10303F6F, 0xF324));  // the pair is the key, not Hash32 alone
  CHECK_FALSE(kh2_name_for(kh2_hash32("no/such/file.bin"), kh2_hash16("no/such/file.bin")));
  for (std::string world : {"000al.idx", "000bb.idx", "000gumi.idx", "000wm.idx"})
    CHECK(kh2_name_for(kh2_hash32(world), kh2_hash16(world)) == std::optional<std::string_view>(world));
  CHECK(kh2_name_for(kh2_hash32("obj/P_EX100.mset"), kh2_hash16("obj/P_EX100.mset")));
}

TEST_CASE("KH2 name table: every name of ../shared/data resolves to itself", "[kh2_idx][names][shared]") {
  const auto shared = animdex::test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared is absent: skipped");
  std::ifstream in(*shared / "data" / "kh2-idx-names.txt");
  REQUIRE(in);
  std::string line;
  std::size_t names = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    ++names;
    const auto found = kh2_name_for(kh2_hash32(line), kh2_hash16(line));
    if (!found || *found != line) FAIL_CHECK(line);
  }
  CHECK(names == 111680);
  CHECK(names == kh2_known_name_count());
}
