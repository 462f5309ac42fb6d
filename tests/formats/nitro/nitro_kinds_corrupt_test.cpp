// One crafted corrupt input per rule of nitro-models-and-anims.md section 8 that BTA0, BTP0 and
// BMA0 files obey (file header, blocks, the animation set and material dictionaries, animation
// headers, then each kind's own rules): a clear error naming the field's offset, never a crash;
// the warn-only rules parse with a warning. Then every truncation and byte flip of each kind.
#include <catch2/catch.hpp>

#include <functional>

#include "formats/nitro/bma0_builder.h"
#include "formats/nitro/bma0_format.h"
#include "formats/nitro/bta0_builder.h"
#include "formats/nitro/bta0_format.h"
#include "formats/nitro/btp0_builder.h"
#include "formats/nitro/btp0_format.h"
#include "model/validate.h"
#include "support/corrupt_input.h"

using namespace animdex;
using namespace animdex::nitro;

namespace {

using test::Bytes;

// Nitro fields are little-endian.
std::uint64_t get(const Bytes& b, std::size_t at, int size) { return test::get(b, at, size, LE); }
void put(Bytes& b, std::size_t at, std::uint64_t value, int size) { test::put(b, at, value, size, LE); }

// One-animation files as the writer lays them out: block at 0x14, the animation set dictionary at
// 0x1C (entry header at 0x2C, the animation's offset at 0x30, its name at 0x34), the animation at 0x44.
constexpr std::size_t kBlock = 0x14, kSet = 0x1C, kSetEntry = 0x2C, kAnimationOffset = 0x30;
std::size_t animation_at(const Bytes& b) { return kBlock + get(b, kAnimationOffset, 4); }

Bytes bta0_fixture() {
  std::array<SrtValue, 5> values = {
      srt_constant(4096, true, 4), srt_constant(2048, true, 4),
      srt_array({sin_cos_word(0, 4096), sin_cos_word(4096, 0), sin_cos_word(0, -4096), sin_cos_word(-4096, 0)}, false,
                1, 4),
      srt_array({0, 100, 200}, true, 2, 2), srt_array({0, 4096, 8192, 12288}, false, 1, 4)};
  Bta0File file;
  file.animations = {{"srt", 4, 0, 0, {{"m0", values}}}};
  return write_bta0(file);
}

Bytes btp0_fixture() {
  Btp0File file;
  TexPatternAnimation animation{"pat", 4, {"t0", "t1"}, {"p0"}, {}};
  animation.materials = {pattern_material("m0", 4, {{0, 0, 0}, {2, 1, kKeepPalette}})};
  file.animations = {animation};
  return write_btp0(file);
}

Bytes bma0_fixture() {
  std::array<ColorValue, 5> values = {color_array({1, 2, 3, 4}, 1, 4), color_constant(0x7FFF, 4),
                                      color_constant(0, 4), color_constant(0, 4), color_array({31, 20, 10, 0}, 1, 4)};
  Bma0File file;
  file.animations = {{"col", 4, 0, {{"m0", values}}}};
  return write_bma0(file);
}

// A kind: its magics, where its material dictionary starts in the animation, its entry size, and
// its parse (the error, or the warnings of a good parse).
struct Kind {
  std::string magic, block, header, animation;
  std::size_t dictionary_offset;
  std::uint16_t unit;
  std::function<Bytes()> fixture;
  std::function<Result<std::vector<std::string>>(const Bytes&)> parse;
};

template <typename File>
Result<std::vector<std::string>> warnings_of(const Result<File>& parsed) {
  if (!parsed.ok()) return parsed.error();
  return parsed.value().warnings;
}

const std::vector<Kind>& kinds() {
  static const std::vector<Kind> all = {
      {"BTA0", "SRT0", "4D 00 41 54", "srt", 8, 40, &bta0_fixture,
       [](const Bytes& b) { return warnings_of(parse_bta0(b)); }},
      {"BTP0", "PAT0", "4D 00 50 54", "pat", 12, 8, &btp0_fixture,
       [](const Bytes& b) { return warnings_of(parse_btp0(b)); }},
      {"BMA0", "MAT0", "4D 00 41 4D", "col", 8, 20, &bma0_fixture,
       [](const Bytes& b) { return warnings_of(parse_bma0(b)); }},
  };
  return all;
}

std::size_t dictionary_at(const Kind& kind, const Bytes& b) { return animation_at(b) + kind.dictionary_offset; }
std::size_t entry_header_at(const Kind& kind, const Bytes& b) {
  return dictionary_at(kind, b) + get(b, dictionary_at(kind, b) + 6, 2);
}
std::size_t material_data(const Kind& kind, const Bytes& b) { return entry_header_at(kind, b) + 4; }

std::vector<std::string> warnings_ok(const Kind& kind, const Bytes& b) {
  auto parsed = kind.parse(b);
  if (!parsed.ok()) FAIL(parsed.error().message());
  return parsed.value();
}

void expect_error(const Kind& kind, const Bytes& b, const std::string& text, std::uint64_t offset) {
  test::expect_parse_error(kind.parse(b), text, offset);
}

}  // namespace

TEST_CASE("corrupt BTA0, BTP0 and BMA0 headers and blocks", "[nitro][nsbta][nsbtp][nsbma][corrupt]") {
  for (const Kind& kind : kinds()) {
    INFO(kind.magic);
    const Bytes good = kind.fixture();
    REQUIRE(warnings_ok(kind, good).empty());
    DYNAMIC_SECTION(kind.magic << ": shorter than the header") {
      expect_error(kind, Bytes(good.begin(), good.begin() + 12), "Nitro header", 0);
    }
    DYNAMIC_SECTION(kind.magic << ": magic") {
      Bytes b = good;
      b[3] = std::byte{'9'};
      expect_error(kind, b, "magic " + kind.magic, 0);
    }
    DYNAMIC_SECTION(kind.magic << ": byte-order mark") {
      Bytes b = good;
      put(b, 4, 0xFFFE, 2);
      expect_error(kind, b, "byte-order mark FF FE", 4);
    }
    DYNAMIC_SECTION(kind.magic << ": header size") {
      Bytes b = good;
      put(b, 0x0C, 20, 2);
      expect_error(kind, b, "header size 16", 0x0C);
    }
    DYNAMIC_SECTION(kind.magic << ": declared size past the real length") {
      Bytes b = good;
      put(b, 8, b.size() + 4, 4);
      expect_error(kind, b, "file size at most the real length", 8);
    }
    DYNAMIC_SECTION(kind.magic << ": no blocks") {
      Bytes b = good;
      put(b, 0x0E, 0, 2);
      expect_error(kind, b, "at least one block", 0x0E);
    }
    DYNAMIC_SECTION(kind.magic << ": block size past the file") {
      Bytes b = good;
      put(b, kBlock + 4, b.size(), 4);
      expect_error(kind, b, "block size 8..", kBlock + 4);
    }
    DYNAMIC_SECTION(kind.magic << ": block magic") {
      Bytes b = good;
      b[kBlock] = std::byte{'X'};
      expect_error(kind, b, "block magic " + kind.block, kBlock);
    }
    DYNAMIC_SECTION(kind.magic << ": version other than 1 (warning)") {
      Bytes b = good;
      put(b, 6, 2, 2);
      const auto warnings = warnings_ok(kind, b);
      REQUIRE(warnings.size() == 1);
      CHECK_THAT(warnings[0], Catch::Contains("Nitro version 2"));
    }
  }
}

TEST_CASE("corrupt BTA0, BTP0 and BMA0 dictionaries and animation headers", "[nitro][nsbta][nsbtp][nsbma][corrupt]") {
  for (const Kind& kind : kinds()) {
    INFO(kind.magic);
    const Bytes good = kind.fixture();
    const std::size_t animation = animation_at(good), materials = dictionary_at(kind, good);
    const std::size_t material_entry = entry_header_at(kind, good);
    DYNAMIC_SECTION(kind.magic << ": set dictionary revision") {
      Bytes b = good;
      b[kSet] = std::byte{1};
      expect_error(kind, b, "animation set dictionary revision 0", kSet);
    }
    DYNAMIC_SECTION(kind.magic << ": set dictionary without animations") {
      Bytes b = good;
      b[kSet + 1] = std::byte{0};
      expect_error(kind, b, "animation set dictionary with at least 1 entries", kSet + 1);
    }
    DYNAMIC_SECTION(kind.magic << ": set dictionary entry header not after the tree") {
      Bytes b = good;
      put(b, kSet + 6, 20, 2);
      expect_error(kind, b, "animation set dictionary entry header at 16", kSet + 6);
    }
    DYNAMIC_SECTION(kind.magic << ": set dictionary data size") {
      Bytes b = good;
      put(b, kSetEntry, 8, 2);
      expect_error(kind, b, "animation set dictionary data size 4", kSetEntry);
    }
    DYNAMIC_SECTION(kind.magic << ": set dictionary names not after the data") {
      Bytes b = good;
      put(b, kSetEntry + 2, 12, 2);
      expect_error(kind, b, "animation set dictionary names at 8", kSetEntry + 2);
    }
    DYNAMIC_SECTION(kind.magic << ": set dictionary size") {
      Bytes b = good;
      put(b, kSet + 2, get(b, kSet + 2, 2) + 4, 2);
      expect_error(kind, b, "animation set dictionary size", kSet + 2);
    }
    DYNAMIC_SECTION(kind.magic << ": set dictionary past the block") {
      Bytes b = good;
      put(b, kBlock + 4, 16, 4);  // the block ends right after the dictionary header
      expect_error(kind, b, "animation set dictionary entry header", kSet + 6);
    }
    DYNAMIC_SECTION(kind.magic << ": animation outside the block") {
      Bytes b = good;
      put(b, kAnimationOffset, 0x10000, 4);
      expect_error(kind, b, "animation '" + kind.animation + "' header", kAnimationOffset);
    }
    DYNAMIC_SECTION(kind.magic << ": animation header") {
      Bytes b = good;
      b[animation + 2] = std::byte{'X'};
      expect_error(kind, b, "header " + kind.header, animation);
    }
    DYNAMIC_SECTION(kind.magic << ": frame count 0") {
      Bytes b = good;
      put(b, animation + 4, 0, 2);
      expect_error(kind, b, "frame count >= 1", animation + 4);
    }
    DYNAMIC_SECTION(kind.magic << ": material dictionary revision") {
      Bytes b = good;
      b[materials] = std::byte{2};
      expect_error(kind, b, "material dictionary revision 0", materials);
    }
    DYNAMIC_SECTION(kind.magic << ": material dictionary entry header not after the tree") {
      Bytes b = good;
      put(b, materials + 6, 12, 2);
      expect_error(kind, b, "material dictionary entry header at 16", materials + 6);
    }
    DYNAMIC_SECTION(kind.magic << ": material dictionary data size") {
      Bytes b = good;
      put(b, material_entry, kind.unit + 4u, 2);
      expect_error(kind, b, "material dictionary data size " + std::to_string(kind.unit), material_entry);
    }
    DYNAMIC_SECTION(kind.magic << ": material dictionary names not after the data") {
      Bytes b = good;
      put(b, material_entry + 2, 4, 2);
      expect_error(kind, b, "material dictionary names at " + std::to_string(4 + kind.unit), material_entry + 2);
    }
    DYNAMIC_SECTION(kind.magic << ": material dictionary size") {
      Bytes b = good;
      put(b, materials + 2, get(b, materials + 2, 2) - 4, 2);
      expect_error(kind, b, "material dictionary size", materials + 2);
    }
    DYNAMIC_SECTION(kind.magic << ": material dictionary past the block") {
      Bytes b = good;
      put(b, kBlock + 4, materials + 24 - kBlock, 4);  // the block ends inside the dictionary's names
      expect_error(kind, b, "material dictionary (", materials + 2);
    }
  }
}

TEST_CASE("corrupt BTA0 values: step code, LAST_INTERP, rotation FX16, arrays outside the block",
          "[nitro][nsbta][corrupt]") {
  const Kind& kind = kinds()[0];
  const Bytes good = bta0_fixture();
  const std::size_t data = material_data(kind, good);
  const auto info = [&](std::size_t part) { return data + 8 * part; };
  SECTION("step code 3 in a constant") {
    Bytes b = good;
    put(b, info(kScaleS), get(b, info(kScaleS), 4) | 0xC0000000u, 4);
    expect_error(kind, b, "material 'm0' scaleS: step 1, 2 or 4", info(kScaleS));
  }
  SECTION("step code 3 in an array") {
    Bytes b = good;
    put(b, info(kTransT), get(b, info(kTransT), 4) | 0xC0000000u, 4);
    expect_error(kind, b, "transT: step 1, 2 or 4", info(kTransT));
  }
  SECTION("step-2 LAST_INTERP at the frame count") {
    Bytes b = good;
    put(b, info(kTransS), (get(b, info(kTransS), 4) & ~0xFFFFu) | 4u, 4);
    expect_error(kind, b, "transS: LAST_INTERP below the frame count 4 for a step-2 array", info(kTransS));
  }
  SECTION("rotation array with FX16") {
    Bytes b = good;
    put(b, info(kRotation), get(b, info(kRotation), 4) | kSrtFx16, 4);
    expect_error(kind, b, "rot: a rotation array of 4-byte (sin, cos) pairs", info(kRotation));
  }
  SECTION("array past the block") {
    Bytes b = good;
    put(b, info(kTransT) + 4, get(b, info(kTransT) + 4, 4) + 4, 4);  // the last array, moved 4 bytes on
    expect_error(kind, b, "transT array (16 bytes", info(kTransT) + 4);
  }
  SECTION("array offset far outside") {
    Bytes b = good;
    put(b, info(kRotation) + 4, 0xFFFFFFF0u, 4);
    expect_error(kind, b, "rot array", info(kRotation) + 4);
  }
  SECTION("step-1 LAST_INTERP other than numFrame (warning)") {
    Bytes b = good;
    put(b, info(kTransT), (get(b, info(kTransT), 4) & ~0xFFFFu) | 3u, 4);
    const auto warnings = warnings_ok(kind, b);
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("srt: material 'm0' transT: LAST_INTERP 3 in a step-1 array of 4 frames"));
  }
}

TEST_CASE("BTA0 arrays shared by many values stop at the sample budget", "[nitro][nsbta][corrupt]") {
  // 40 materials whose 200 values all point at one array of 2000 samples: 400000 samples from a
  // file of about 6 KB (the budget is 8 per byte).
  std::vector<SrtMaterial> materials;
  for (int m = 0; m < 40; ++m) {
    SrtMaterial material{"m" + std::to_string(m), {}};
    for (auto& value : material.values) value = srt_constant(0, true, 2000);
    materials.push_back(material);
  }
  materials[0].values[kTransS] = srt_array(std::vector<std::int32_t>(2000, 7), true, 1, 2000);
  Bta0File file;
  file.animations = {{"shared", 2000, 0, 0, materials}};
  Bytes b = write_bta0(file);
  const Kind& kind = kinds()[0];
  const std::size_t data = material_data(kind, b);
  const std::uint64_t array_info = get(b, data + 8 * kTransS, 4), array_ex = get(b, data + 8 * kTransS + 4, 4);
  for (std::size_t value = 0; value < 200; ++value) {
    if (value % 5 == kRotation) continue;  // rotation arrays are 4 bytes a sample
    put(b, data + 8 * value, array_info, 4);
    put(b, data + 8 * value + 4, array_ex, 4);
  }
  const auto parsed = parse_bta0(b);
  REQUIRE_FALSE(parsed.ok());
  CHECK_THAT(parsed.error().message(), Catch::Contains("samples in all (8 per byte of the file)"));
}

TEST_CASE("corrupt BMA0 values: step code, LAST_INTERP, arrays outside the block", "[nitro][nsbma][corrupt]") {
  const Kind& kind = kinds()[2];
  const Bytes good = bma0_fixture();
  const std::size_t data = material_data(kind, good);
  const auto info = [&](std::size_t part) { return data + 4 * part; };
  SECTION("step code 3 in a constant") {
    Bytes b = good;
    put(b, info(kSpecular), get(b, info(kSpecular), 4) | 0xC0000000u, 4);
    expect_error(kind, b, "material 'm0' specular: step 1, 2 or 4", info(kSpecular));
  }
  SECTION("step code 3 in an array") {
    Bytes b = good;
    put(b, info(kDiffuse), get(b, info(kDiffuse), 4) | 0xC0000000u, 4);
    expect_error(kind, b, "diffuse: step 1, 2 or 4", info(kDiffuse));
  }
  SECTION("step-4 LAST_INTERP past the frames") {
    Bytes b = good;
    put(b, info(kAlpha), (get(b, info(kAlpha), 4) & 0xFFFFu) | 0x80000000u | (5u << 16), 4);
    expect_error(kind, b, "alpha: LAST_INTERP below the frame count 4 for a step-4 array", info(kAlpha));
  }
  SECTION("colour array past the block") {
    Bytes b = good;
    put(b, info(kDiffuse), (get(b, info(kDiffuse), 4) & ~0xFFFFu) | 0xFFF0u, 4);
    expect_error(kind, b, "diffuse array (8 bytes", info(kDiffuse));
  }
  SECTION("alpha array past the block") {
    Bytes b = good;
    const std::uint64_t alpha = get(b, info(kAlpha), 4);
    REQUIRE(animation_at(b) + (alpha & 0xFFFF) + 4 == kBlock + get(b, kBlock + 4, 4));  // the block's last bytes
    put(b, info(kAlpha), alpha + 1, 4);  // one byte on
    expect_error(kind, b, "alpha array (4 bytes", info(kAlpha));
  }
  SECTION("step-1 LAST_INTERP other than numFrame (warning)") {
    Bytes b = good;
    put(b, info(kAlpha), (get(b, info(kAlpha), 4) & 0xFFFFu) | (7u << 16), 4);
    const auto warnings = warnings_ok(kind, b);
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("col: material 'm0' alpha: LAST_INTERP 7 in a step-1 array of 4 frames"));
  }
}

TEST_CASE("corrupt BTP0 keys and names", "[nitro][nsbtp][corrupt]") {
  const Kind& kind = kinds()[1];
  const Bytes good = btp0_fixture();
  const std::size_t animation = animation_at(good), data = material_data(kind, good);
  const std::size_t keys = animation + get(good, data + 6, 2);
  SECTION("no keys") {
    Bytes b = good;
    put(b, data, 0, 2);
    expect_error(kind, b, "at least one key (numFV)", data);
  }
  SECTION("keys past the block") {
    Bytes b = good;
    put(b, data + 6, 0xFFF0, 2);
    expect_error(kind, b, "keys of material 'm0'", data + 6);
  }
  SECTION("texture index past numTex") {
    Bytes b = good;
    b[keys + 4 + 2] = std::byte{2};
    expect_error(kind, b, "texture index below numTex 2", keys + 4 + 2);
  }
  SECTION("palette index past numPltt") {
    Bytes b = good;
    b[keys + 3] = std::byte{1};
    expect_error(kind, b, "palette index below numPltt 1 (or 255: keep the palette)", keys + 3);
  }
  SECTION("key frames not increasing") {
    Bytes b = good;
    put(b, keys + 4, 0, 2);
    expect_error(kind, b, "key frame after the previous key's 0", keys + 4);
  }
  SECTION("texture names past the block") {
    Bytes b = good;
    put(b, animation + 8, 0xFFF0, 2);
    expect_error(kind, b, "texture names (numTex x 16 bytes)", animation + 8);
  }
  SECTION("palette names past the block") {
    Bytes b = good;
    b[animation + 7] = std::byte{9};  // nine palettes: the table runs past the block
    expect_error(kind, b, "palette names (numPltt x 16 bytes)", animation + 10);
  }
  SECTION("first key after frame 0 and a key past the last frame (warnings)") {
    Bytes b = good;
    put(b, keys, 1, 2);
    put(b, keys + 4, 4, 2);
    const auto warnings = warnings_ok(kind, b);
    REQUIRE(warnings.size() == 2);
    CHECK_THAT(warnings[0], Catch::Contains("pat: material 'm0': first key at frame 1"));
    CHECK_THAT(warnings[1], Catch::Contains("key at frame 4, past the last frame 3"));
  }
}

TEST_CASE("every truncation and byte flip of a BTA0, BTP0 and BMA0 file parses or fails cleanly",
          "[nitro][nsbta][nsbtp][nsbma][corrupt]") {
  for (const Kind& kind : kinds()) {
    INFO(kind.magic);
    const Bytes good = kind.fixture();
    for (std::size_t length = 0; length < good.size(); ++length) {
      const auto parsed = kind.parse(Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(length)));
      REQUIRE_FALSE(parsed.ok());  // the header's size, then the block's, no longer fit
      CHECK_FALSE(parsed.error().expected.empty());
      CHECK(parsed.error().offset <= length);
    }
    std::size_t parsed_count = 0;
    for (std::size_t at = 0; at < good.size(); ++at)
      for (const std::uint8_t flip : {0x01, 0x80, 0xFF}) {
        Bytes b = good;
        b[at] ^= static_cast<std::byte>(flip);
        const auto parsed = kind.parse(b);
        if (parsed.ok()) {
          ++parsed_count;
          continue;
        }
        CHECK_FALSE(parsed.error().expected.empty());
        CHECK(parsed.error().offset <= b.size());
      }
    CHECK(parsed_count > 0);  // names, padding and sample values may take any byte
  }
}

TEST_CASE("flipped BTA0, BTP0 and BMA0 files that parse still make valid models and poses", "[nitro][corrupt]") {
  const auto check = [](const Bytes& good, auto parse, auto to_model, auto pose) {
    for (std::size_t at = 0; at < good.size(); ++at) {
      Bytes b = good;
      b[at] ^= std::byte{0xFF};
      const auto parsed = parse(b);
      if (!parsed.ok()) continue;
      INFO("byte " << at);
      CHECK_FALSE(model::validate(to_model(parsed.value())));
      for (const auto& animation : parsed.value().animations) {
        PoseRequest request;
        request.animation = animation.name;
        request.frame = animation.frame_count - 1;
        CHECK(std::holds_alternative<Pose>(pose(b, request)));
      }
    }
  };
  check(bta0_fixture(), &parse_bta0, &bta0_to_model, &bta0_pose);
  check(btp0_fixture(), &parse_btp0, &btp0_to_model, &btp0_pose);
  check(bma0_fixture(), &parse_bma0, &bma0_to_model, &bma0_pose);
}
