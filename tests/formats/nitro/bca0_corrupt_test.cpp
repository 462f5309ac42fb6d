// One crafted corrupt input per rule of nsbca.md "Validation": a clear error naming the offset,
// never a crash; the warn-only rules parse with a warning.
#include <catch2/catch.hpp>

#include "formats/nitro/bca0_builder.h"
#include "formats/nitro/bca0_parser.h"
#include "formats/nitro/bca0_writer.h"
#include "formats/registry.h"
#include "support/corrupt_input.h"

using namespace animdex;
using namespace animdex::nsbca;

namespace {

using test::Bytes;

// NSBCA fields are little-endian.
std::uint64_t get(const Bytes& b, std::size_t at, int size) { return test::get(b, at, size, LE); }
void put(Bytes& b, std::size_t at, std::uint64_t value, int size) { test::put(b, at, value, size, LE); }

constexpr std::size_t kBlock = 0x14, kDict = 0x1C;
std::size_t entry_header(const Bytes& b) { return kDict + get(b, kDict + 6, 2); }
std::size_t jac(const Bytes& b) { return kBlock + get(b, entry_header(b) + 4, 4); }
std::size_t tag_at(const Bytes& b, int node) { return jac(b) + get(b, jac(b) + 0x14 + 2 * node, 2); }

// Node 0: T x animated (fx32), y/z const; R const (Rot5 0). Node 1: R animated over Rot3/Rot5.
Bytes fixture() {
  JointAnimation animation;
  animation.name = "fixture";
  animation.frame_count = 4;
  animation.rot5 = {encode_rot5(rotation_about_z(30))};
  animation.rot3 = {encode_rot3(8, false, 0, 1, true, false)};
  NodeAnimation first;
  first.translation = {animated_axis({0, 1, 2, 3}, 4, 1, false, false), constant_axis(1, false), constant_axis(2, false)};
  first.rotation = constant_rotation(0);
  first.tag = tag_for(first, 0);
  NodeAnimation second;
  second.rotation = animated_rotation({0x8000, 0, 0x8000, 0}, 4, 1);
  second.tag = tag_for(second, 1);
  animation.nodes = {first, second};
  NsbcaFile file;
  file.animations = {animation};
  return write_nsbca(file);
}

void expect_error(const Bytes& bytes, const std::string& text, std::optional<std::uint64_t> offset = std::nullopt) {
  test::expect_parse_error(parse_nsbca(bytes), text, offset);
}

}  // namespace

TEST_CASE("corrupt NSBCA headers, blocks and dictionaries", "[nsbca][corrupt]") {
  const Bytes good = fixture();
  REQUIRE(parse_nsbca(good).ok());
  SECTION("shorter than the header") { expect_error(Bytes(good.begin(), good.begin() + 12), "Nitro header", 0); }
  SECTION("magic") {
    Bytes b = good;
    b[3] = std::byte{'1'};
    expect_error(b, "magic BCA0", 0);
  }
  SECTION("byte-order mark") {
    Bytes b = good;
    put(b, 4, 0xFFFE, 2);
    expect_error(b, "byte-order mark FF FE", 4);
  }
  SECTION("header size") {
    Bytes b = good;
    put(b, 0x0C, 20, 2);
    expect_error(b, "header size 16", 0x0C);
  }
  SECTION("declared size past the real length") {
    Bytes b = good;
    put(b, 8, static_cast<std::uint32_t>(b.size() + 4), 4);
    expect_error(b, "file size at most the real length", 8);
  }
  SECTION("no blocks") {
    Bytes b = good;
    put(b, 0x0E, 0, 2);
    expect_error(b, "at least one block", 0x0E);
  }
  SECTION("block offset outside the file") {
    Bytes b = good;
    put(b, 0x10, static_cast<std::uint32_t>(b.size() - 4), 4);
    expect_error(b, "block 0 offset + 8 inside the file", 0x10);
  }
  SECTION("block magic") {
    Bytes b = good;
    b[kBlock] = std::byte{'X'};
    expect_error(b, "block magic JNT0", kBlock);
  }
  SECTION("block size past the file") {
    Bytes b = good;
    put(b, kBlock + 4, static_cast<std::uint32_t>(b.size()), 4);
    expect_error(b, "block size within the file", kBlock + 4);
  }
  SECTION("dictionary revision") {
    Bytes b = good;
    b[kDict] = std::byte{1};
    expect_error(b, "dictionary revision 0", kDict);
  }
  SECTION("empty dictionary") {
    Bytes b = good;
    b[kDict + 1] = std::byte{0};
    expect_error(b, "at least one dictionary entry", kDict + 1);
  }
  SECTION("data size per entry") {
    Bytes b = good;
    put(b, entry_header(b), 8, 2);
    expect_error(b, "dictionary data size 4", entry_header(b));
  }
  SECTION("names outside the block") {
    Bytes b = good;
    put(b, entry_header(b) + 2, 0xFFF0, 2);
    expect_error(b, "dictionary names");
  }
  SECTION("tree outside the block") {
    Bytes b = good;
    put(b, kDict + 4, 0xFFF0, 2);
    expect_error(b, "dictionary tree", kDict + 4);
  }
}

TEST_CASE("corrupt J.AC animations, tags, tables and arrays", "[nsbca][corrupt]") {
  const Bytes good = fixture();
  SECTION("J.AC outside the block") {
    Bytes b = good;
    put(b, entry_header(b) + 4, static_cast<std::uint32_t>(b.size()), 4);
    expect_error(b, "animation 0 J.AC header", entry_header(b) + 4);  // the field, not a place past the end
  }
  SECTION("J.AC magic") {
    Bytes b = good;
    b[jac(b) + 1] = std::byte{1};
    expect_error(b, "J.AC magic 4A 00 41 43", jac(b));
  }
  SECTION("no frames") {
    Bytes b = good;
    put(b, jac(b) + 4, 0, 2);
    expect_error(b, "frame count >= 1", jac(b) + 4);
  }
  SECTION("no nodes") {
    Bytes b = good;
    put(b, jac(b) + 6, 0, 2);
    expect_error(b, "node count >= 1", jac(b) + 6);
  }
  SECTION("tag offset outside the block") {
    Bytes b = good;
    put(b, jac(b) + 0x14, 0xFFFF, 2);
    expect_error(b, "node 0 tag", jac(b) + 0x14);
  }
  SECTION("Rot5 table before the Rot3 table") {
    Bytes b = good;
    put(b, jac(b) + 0x10, get(b, jac(b) + 0x0C, 4) - 2, 4);
    expect_error(b, "Rot5 table offset at or after the Rot3 table", jac(b) + 0x10);
  }
  SECTION("an array past the block") {
    Bytes b = good;
    put(b, tag_at(b, 0) + 8, static_cast<std::uint32_t>(b.size()), 4);  // node 0 Tx offset
    expect_error(b, "node 0 Tx array", tag_at(b, 0) + 8);
  }
  SECTION("step 3") {
    Bytes b = good;
    put(b, tag_at(b, 0) + 4, get(b, tag_at(b, 0) + 4, 4) | 0xC0000000u, 4);
    expect_error(b, "node 0 Tx: step 1, 2 or 4", tag_at(b, 0) + 4);
  }
  SECTION("a constant rotation naming a Rot5 entry past the table") {
    Bytes b = good;
    const std::size_t word = tag_at(b, 0) + 4 + 8 + 4 + 4;  // after Tx (info+offset), Ty, Tz
    put(b, word, 7, 4);
    expect_error(b, "Rot5 index < the table's 1 entries", word);
  }
  SECTION("an animated rotation naming a Rot3 entry past the table") {
    Bytes b = good;
    const std::size_t array = jac(b) + get(b, tag_at(b, 1) + 8, 4);
    put(b, array + 2, 0x8005, 2);
    expect_error(b, "Rot3 index < the table's 1 entries", array + 2);
  }
  SECTION("Rot3 pivot position above 8") {
    Bytes b = good;
    const std::size_t rot3 = jac(b) + get(b, jac(b) + 0x0C, 4);
    put(b, rot3, 9, 2);
    expect_error(b, "Rot3 entry 0 pivot position 0..8", rot3);
  }
  SECTION("records past the block") {
    Bytes b = good;
    // Node 1's tag moved to the block's last 4 bytes: its records would run past the end.
    put(b, jac(b) + 0x14 + 2, static_cast<std::uint32_t>(b.size() - 4 - jac(b)), 2);
    put(b, b.size() - 4, 0x00000000, 4);  // no identity bits: Tx is animated and needs 8 bytes
    expect_error(b, "node 1 records", b.size() - 4);
  }
}

TEST_CASE("warn-only NSBCA rules parse, with a warning each", "[nsbca][corrupt]") {
  Bytes b = fixture();
  put(b, 6, 2, 2);                                      // version 2
  put(b, tag_at(b, 1), get(b, tag_at(b, 1), 4) | 0x4000, 4);  // tag bit 14
  const std::size_t word = tag_at(b, 0) + 4 + 8 + 4 + 4;
  put(b, word, 0x00010000, 4);                          // constant rotation word with upper bits
  const auto parsed = parse_nsbca(b);
  REQUIRE(parsed.ok());
  const auto& warnings = parsed.value().warnings;
  REQUIRE(warnings.size() == 3);
  CHECK_THAT(warnings[0], Catch::Contains("version 2"));
  CHECK_THAT(warnings[1], Catch::Contains("upper bits set"));
  CHECK_THAT(warnings[2], Catch::Contains("bits 14-23 set"));
}

TEST_CASE("every truncation and byte flip of an NSBCA file parses or fails cleanly", "[nsbca][corrupt]") {
  const Bytes good = fixture();
  std::size_t errors = 0;
  for (std::size_t length = 0; length < good.size(); ++length) {
    const Bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(length));
    if (const auto* format = detect_format(cut, cut.size())) {
      const auto parsed = format->parse(cut);
      if (!parsed.ok()) {
        ++errors;
        CHECK_FALSE(parsed.error().expected.empty());
      }
    }
  }
  CHECK(errors == good.size() - 4);  // every cut with the magic is an error
  for (std::size_t at = 0; at < good.size(); ++at)
    for (const std::uint8_t flip : {0x01, 0x80, 0xFF}) {
      Bytes b = good;
      b[at] ^= static_cast<std::byte>(flip);
      const auto parsed = parse_nsbca(b);
      if (!parsed.ok()) {
        CHECK_FALSE(parsed.error().expected.empty());
        CHECK(parsed.error().offset <= b.size());
      }
    }
}
