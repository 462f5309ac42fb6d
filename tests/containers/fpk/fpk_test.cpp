// GNT4 FPK (containers.md section 1): writer round trips through list + PRS, GNTool's name
// restoration table, repeated paths, warnings and detection.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "containers/fpk/prs.h"
#include "containers/container_test_support.h"
#include "containers/fpk/fpk_container.h"
#include "containers/fpk/fpk_writer.h"
#include "support/corrupt_input.h"

using namespace animdex;
using namespace animdex::fpk;
using test::Bytes;

namespace {

std::uint64_t get32(const Bytes& b, std::size_t at) { return test::get(b, at, 4, BE); }

Result<MemberList> list_bytes(const Bytes& fpk, const ContainerLimits& limits = {}) {
  const MemorySource source{std::span<const std::byte>(fpk)};
  return list_fpk(ContainerInput{source, source, "test.fpk"}, limits);
}

MemberList listed(const Bytes& fpk) {
  auto result = list_bytes(fpk);
  INFO((result.ok() ? std::string("ok") : result.error().message()));
  REQUIRE(result.ok());
  return result.value();
}

Bytes member_bytes(const Bytes& fpk, const Member& member) {
  REQUIRE(member.offset + member.stored_size <= fpk.size());
  const std::span<const std::byte> stored(fpk.data() + member.offset, member.stored_size);
  if (member.compression == nullptr) return Bytes(stored.begin(), stored.end());
  REQUIRE(member.compression == &fpk::kPrsCodec);
  auto plain = prs_decompress(stored, member.size);
  INFO((plain.ok() ? std::string("ok") : plain.error().message()));
  REQUIRE(plain.ok());
  return plain.value();
}

Bytes pattern(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  Bytes out;
  while (out.size() < count) out.insert(out.end(), 1 + rng() % 40, static_cast<std::byte>(rng() % 6));
  out.resize(count);
  return out;
}

bool has_warning(const MemberList& list, const std::string& text) {
  for (const auto& warning : list.warnings)
    if (warning.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("FPK writer round trip through list and decompress", "[fpk]") {
  const std::vector<FpkInput> inputs = {
      {"chr/nar/0000.mot", pattern(5000, 1), true},     // 16 bytes: stored as hr/nar/0000.mot
      {"chr/nar/0001.mot", pattern(33, 2), false},      // raw
      {"unite/010/0000.mot", pattern(70'000, 3), true},  // 18 bytes: stored as te/010/0000.mot
      {"shop/0000.mot", {}, true},                        // empty, compressed: 4-byte stream for 0 bytes
      {"title/0000.mot", Bytes(7, std::byte{0x42}), false},
  };
  const Bytes fpk = write_fpk(inputs);
  CHECK(get32(fpk, 0) == 0);
  CHECK(get32(fpk, 4) == inputs.size());
  CHECK(get32(fpk, 8) == 0x10);
  CHECK(get32(fpk, 12) == fpk.size());
  CHECK(fpk.size() % 16 == 0);
  REQUIRE(detect_fpk(fpk, fpk.size()));

  const MemberList list = listed(fpk);
  CHECK(list.warnings.empty());
  REQUIRE(list.members.size() == inputs.size());
  const char* const stored_names[] = {"hr/nar/0000.mot", "hr/nar/0001.mot", "te/010/0000.mot", "shop/0000.mot",
                                      "title/0000.mot"};
  std::uint64_t expected_offset = kHeaderSize + kEntrySize * inputs.size();
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Member& member = list.members[i];
    CAPTURE(i, member.path);
    CHECK(member.path == inputs[i].path);
    CHECK(member.stored_name == stored_names[i]);
    CHECK(member.offset == expected_offset);  // data right after the table, in entry order, 16-aligned
    CHECK(member.size == inputs[i].bytes.size());
    CHECK(member.compression == (inputs[i].compress ? &fpk::kPrsCodec : nullptr));
    CHECK(member_bytes(fpk, member) == inputs[i].bytes);
    expected_offset += (member.stored_size + 15) / 16 * 16;
  }
  CHECK(expected_offset == fpk.size());
  CHECK(list.members[3].stored_size == 4);  // 40 00 00 00
}

TEST_CASE("FPK writer stores a member raw only when PRS comes out exactly as long", "[fpk]") {
  // Incompressible bytes grow under PRS (9 bits a literal): GNTool stores them compressed anyway.
  std::mt19937 rng(5);
  Bytes noise(1000);
  for (auto& b : noise) b = static_cast<std::byte>(rng() & 0xFF);
  const Bytes fpk = write_fpk({{"noise.bin", noise, true}});
  const MemberList list = listed(fpk);
  CHECK(list.members[0].compression == &fpk::kPrsCodec);
  CHECK(list.members[0].stored_size > noise.size());
  CHECK(member_bytes(fpk, list.members[0]) == noise);
  // Equal sizes: noise then a run of zeros grows the plain bytes one by one while the stream stays
  // nearly the same length, so some run length makes them meet; that member must be stored raw.
  const Bytes prefix(noise.begin(), noise.begin() + 40);
  bool met = false;
  for (std::size_t zeros = 0; zeros < 300; ++zeros) {
    Bytes plain = prefix;
    plain.resize(prefix.size() + zeros, std::byte{0});
    const Bytes packed = prs_compress(plain);
    const Bytes one = write_fpk({{"x.bin", plain, true}});
    const Member member = listed(one).members[0];
    CAPTURE(zeros, packed.size());
    CHECK(member_bytes(one, member) == plain);
    CHECK(member.compression == (packed.size() == plain.size() ? nullptr : &fpk::kPrsCodec));
    met = met || packed.size() == plain.size();
  }
  CHECK(met);
}

TEST_CASE("FPK names: GNTool's restoration table, only for 15-byte names", "[fpk]") {
  struct Case {
    const char* original;
    const char* stored;
  };
  const Case cases[] = {
      {"chr/nar/0000.mot", "hr/nar/0000.mot"},      {"unite/010/0000.mot", "te/010/0000.mot"},
      {"maki/abcdefghijk", "aki/abcdefghijk"},      {"maki/abcdefghijkl", "ki/abcdefghijkl"},
      {"game/abcdefghijk", "ame/abcdefghijk"},      {"game/abcdefghijkl", "me/abcdefghijkl"},
      {"stg/abcdefghijklm", "g/abcdefghijklm"},     {"stg/abcdefghijkl", "tg/abcdefghijkl"},
      {"furu/abcdefghijkl", "ru/abcdefghijkl"},     {"kuro/abcdefghijk", "uro/abcdefghijk"},
      {"vs/abcdefg4201.txg", "abcdefg4201.txg"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.original);
    CHECK(stored_fpk_name(c.original) == c.stored);
    CHECK(restore_name(c.stored) == c.original);
  }
  // Shorter or longer names were never truncated: left alone even when a prefix matches.
  CHECK(restore_name("hr/a.mot") == "hr/a.mot");
  CHECK(restore_name("te/010/00000.mot") == "te/010/00000.mot");  // 16 bytes (no NUL in the field)
  CHECK(restore_name("shop/0000.mot") == "shop/0000.mot");
  CHECK(restore_name("other/0000.mot1") == "other/0000.mot1");  // 15 bytes, no rule: as stored
  CHECK(stored_fpk_name("abcdefghijklmno") == "abcdefghijklmno");  // 15 bytes fit
  CHECK(stored_fpk_name("") == "");

  // Through an archive: every case lists under its original path.
  std::vector<FpkInput> inputs;
  for (const auto& c : cases) inputs.push_back({c.original, pattern(100, 9), true});
  const MemberList list = listed(write_fpk(inputs));
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    CHECK(list.members[i].path == inputs[i].path);
    CHECK(list.members[i].stored_name == cases[i].stored);
  }
}

TEST_CASE("FPK repeated paths are all listed, with #2, #3 suffixes and a warning", "[fpk]") {
  const Bytes fpk = write_fpk({{"a/b.mot", pattern(10, 1), false},
                               {"a/b.mot#2", pattern(10, 2), false},
                               {"a/b.mot", pattern(10, 3), false},
                               {"a/b.mot", pattern(10, 4), false},
                               {"xchr/nar/0000.mot", pattern(10, 5), false},  // 17 bytes: also hr/nar/0000.mot
                               {"chr/nar/0000.mot", pattern(10, 6), false}});
  const MemberList list = listed(fpk);
  REQUIRE(list.members.size() == 6);
  CHECK(list.members[0].path == "a/b.mot");
  CHECK(list.members[1].path == "a/b.mot#2");
  CHECK(list.members[2].path == "a/b.mot#3");  // #2 is taken by a real name
  CHECK(list.members[3].path == "a/b.mot#4");
  CHECK(list.members[4].path == "chr/nar/0000.mot");
  CHECK(list.members[5].path == "chr/nar/0000.mot#2");
  CHECK(list.members[5].stored_name == "hr/nar/0000.mot");
  CHECK(list.warnings.size() == 3);
  CHECK(has_warning(list, "entry 2 repeats the path a/b.mot; listed as a/b.mot#3"));
  CHECK(member_bytes(fpk, list.members[3]) == pattern(10, 4));
}

TEST_CASE("FPK warnings: total size, names without a NUL, and their cap", "[fpk]") {
  const Bytes good = write_fpk({{"one.bin", pattern(100, 1), true}, {"two.bin", pattern(100, 2), false}});
  SECTION("the header's total size differs from the real size") {
    Bytes fpk = good;
    test::put(fpk, 12, fpk.size() - 16, 4, BE);
    const MemberList list = listed(fpk);
    CHECK(list.members.size() == 2);
    CHECK(has_warning(list, "total size"));
    Bytes longer = good;
    longer.resize(good.size() + 32);  // trailing bytes: still readable, warned
    CHECK(has_warning(listed(longer), "differs from the real size"));
  }
  SECTION("a name filling all 16 bytes") {
    Bytes fpk = good;
    const std::string name = "sixteen_bytes.ab";
    for (std::size_t i = 0; i < 16; ++i) fpk[kHeaderSize + kEntrySize + i] = static_cast<std::byte>(name[i]);
    const MemberList list = listed(fpk);
    CHECK(list.members[1].path == name);
    CHECK(list.members[1].stored_name == name);
    CHECK(has_warning(list, "entry 1 name at 0x30 has no NUL"));
  }
  SECTION("a thousand repeats make 16 warnings and a count") {
    std::vector<FpkInput> inputs(1000, FpkInput{"same.bin", pattern(1, 1), false});
    const MemberList list = listed(write_fpk(inputs));
    CHECK(list.members.size() == 1000);
    CHECK(list.members.back().path == "same.bin#1000");
    CHECK(list.warnings.size() == 17);
    CHECK(has_warning(list, "983 more repeated paths"));
  }
}

TEST_CASE("FPK detection is cheap and strict", "[fpk]") {
  const Bytes good = write_fpk({{"chr/nar/0000.mot", pattern(100, 1), true}});
  CHECK(detect_fpk(good, good.size()));
  CHECK(detect_fpk(std::span<const std::byte>(good).first(48), good.size()));  // header + first entry suffice
  CHECK_FALSE(detect_fpk(std::span<const std::byte>(good).first(47), good.size()));
  auto altered = [&](std::size_t at, std::uint64_t value, int size) {
    Bytes b = good;
    test::put(b, at, value, size, BE);
    return detect_fpk(b, b.size());
  };
  CHECK_FALSE(altered(4, 0, 4));                    // no entries
  CHECK_FALSE(altered(4, 0x01000000, 4));           // a table larger than the file
  CHECK_FALSE(altered(16, 0, 1));                   // empty name
  CHECK_FALSE(altered(17, 0x01, 1));                // control character in the name
  CHECK_FALSE(altered(17, 0xE3, 1));                // non-ASCII
  CHECK_FALSE(altered(16 + 0x14, 0x20, 4));         // data inside the table
  CHECK_FALSE(altered(16 + 0x18, good.size(), 4));  // data past the end
  Bytes no_nul = good;
  for (std::size_t i = 16; i < 32; ++i) no_nul[i] = std::byte{'a'};
  CHECK_FALSE(detect_fpk(no_nul, no_nul.size()));
  CHECK(altered(0, 0x1234, 4));  // word 0: other Eighting titles' check value, ignored
  CHECK(altered(8, 0, 4));       // word 2: ignored

  // Random data and other containers' headers are not claimed.
  std::mt19937 rng(3);
  int claimed = 0;
  for (int round = 0; round < 2000; ++round) {
    Bytes noise(256);
    for (auto& b : noise) b = static_cast<std::byte>(rng() & 0xFF);
    claimed += detect_fpk(noise, noise.size());
  }
  CHECK(claimed == 0);
  const Bytes narc_like = test::ascii_bytes(std::string("NARC\xFE\xFF\x00\x01", 8) + std::string(56, '\0'));
  CHECK_FALSE(detect_fpk(narc_like, narc_like.size()));
}

TEST_CASE("an FPK whose first entry is broken is still an FPK, the good entry beside it lists", "[fpk][corrupt]") {
  // Issue 35: the broken first entry made the archive fail detection and be read as a gnt_mot.
  Bytes fpk = write_fpk({{"zz1/0000.mot", pattern(100, 1), false}, {"zz1/0001.mot", pattern(100, 2), false}});
  test::put(fpk, kHeaderSize + 0x18, fpk.size(), 4, BE);  // the first entry's data past the end
  REQUIRE(detect_fpk(fpk, fpk.size()));
  const MemberList list = listed(fpk);
  REQUIRE(list.members.size() == 2);
  REQUIRE(list.members[0].error);
  CHECK(list.members[0].path == "zz1/0000.mot");
  CHECK(list.members[0].error->offset == kHeaderSize + 0x18);
  CHECK_FALSE(list.members[1].error);
  CHECK(list.members[1].path == "zz1/0001.mot");
  CHECK(member_bytes(fpk, list.members[1]) == pattern(100, 2));
}

TEST_CASE("FPK module", "[fpk]") {
  const ContainerModule module = container_module();
  CHECK(module.id == "fpk");
  CHECK(module.detect == &detect_fpk);
  CHECK(module.list == &list_fpk);
  CHECK(module.view == nullptr);
  CHECK(module.companion_extension.empty());
}
