// The images containers.md section 2 refuses: each detected by its magic and refused at offset 0
// with its name and the advice.
#include <catch2/catch.hpp>

#include "containers/gcm/gcm_container.h"
#include "containers/gcm/gcm_test_support.h"
#include "containers/gcm/unsupported_images.h"

using namespace animdex;
using namespace animdex::gcm;
using test::Bytes;

namespace {

Bytes head_with(std::size_t at, std::initializer_list<unsigned> magic) {
  Bytes bytes(0x440);
  std::size_t i = at;
  for (unsigned value : magic) bytes[i++] = static_cast<std::byte>(value);
  return bytes;
}

Result<MemberList> refuse(const Bytes& bytes) {
  const MemorySource source{std::span<const std::byte>(bytes)};
  return unsupported_image_module().list(ContainerInput{source, source, "image"}, ContainerLimits{});
}

}  // namespace

TEST_CASE("compressed and Wii images are recognised and refused with advice", "[gcm][unsupported]") {
  struct Case {
    Bytes bytes;
    UnsupportedImage kind;
    std::string name;
  };
  const std::vector<Case> cases = {
      {head_with(0, {0x01, 0xC0, 0x0B, 0xB1}), UnsupportedImage::gcz, "GCZ"},
      {head_with(0, {'W', 'I', 'A', 0x01}), UnsupportedImage::wia, "WIA"},
      {head_with(0, {'R', 'V', 'Z', 0x01}), UnsupportedImage::rvz, "RVZ"},
      {head_with(0, {'W', 'B', 'F', 'S'}), UnsupportedImage::wbfs, "WBFS"},
      {head_with(0, {0xAE, 0x0F, 0x38, 0xA2}), UnsupportedImage::tgc, "TGC"},
      {head_with(0x200, {'N', 'K', 'I', 'T'}), UnsupportedImage::nkit, "NKit"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(unsupported_image_kind(c.bytes) == c.kind);
    CHECK(unsupported_image_module().detect(c.bytes, c.bytes.size()));
    CHECK(unsupported_image_name(c.kind) == c.name);
    test::expect_parse_error(refuse(c.bytes), "not " + c.name + ": convert to ISO with Dolphin (Convert File)", 0);
    CHECK(refuse(c.bytes).error().expected.find(c.name) != std::string::npos);
  }
  Bytes wii = head_with(kWiiMagicOffset, {0x5D, 0x1C, 0x9E, 0xA3});
  CHECK(unsupported_image_kind(wii) == UnsupportedImage::wii);
  test::expect_parse_error(refuse(wii), "not a Wii disc", 0);
  CHECK_THAT(refuse(wii).error().message(), Catch::Contains("Dolphin"));
}

TEST_CASE("the refusal leaves GameCube discs, CISO and short input alone", "[gcm][unsupported]") {
  const Bytes disc = test::fixture_disc();
  CHECK_FALSE(unsupported_image_kind(disc));
  CHECK_FALSE(unsupported_image_kind(head_with(0, {'C', 'I', 'S', 'O'})));
  CHECK_FALSE(unsupported_image_kind(Bytes{std::byte{'W'}, std::byte{'I'}}));
  CHECK_FALSE(unsupported_image_kind({}));
  test::expect_parse_error(refuse(disc), "the kinds this module refuses", 0);
  test::expect_parse_error(refuse(Bytes{}), "the kinds this module refuses", 0);
  const auto module = unsupported_image_module();
  CHECK(module.id == "unsupported_image");
  CHECK(module.view == nullptr);
}
