#include <catch2/catch.hpp>

#include "formats/gnt_mot/gnt_mot_fixture.h"
#include "formats/registry.h"
#include "support/test_support.h"

using namespace animdex;

namespace {
std::string detected(const std::vector<std::byte>& bytes) {
  const auto* format = detect_format(bytes, bytes.size());
  return format ? std::string(format->id) : std::string(kUnknownFormat);
}
}  // namespace

TEST_CASE("formats are detected from bytes, not extensions", "[registry]") {
  CHECK(detected(test::handmade_mot()) == "gnt_mot");
  // A truncated GNT file is still GNT (and becomes a parse error, not 'unknown').
  auto truncated = test::handmade_mot();
  truncated.resize(0x40);
  CHECK(detected(truncated) == "gnt_mot");
  CHECK(detected(test::bytes_of("S00F000068656C6C6F202020202000003C\nS9030000FC\n")) == "unknown");
  CHECK(detected(test::bytes_of("LWMO\n1\n9\n1\n0 0 0 0 0 0 1 1 1\n0 0 0 0 0\n")) == "lw_mot");
  CHECK(detected(test::bytes_of("LWMO\r\n3\r\n")) == "lw_mot");
  CHECK(detected(test::bytes_of("LWEN\n1\n1\n1\n0\n0 0 0 0 0")) == "lw_env");
  CHECK(detected(test::bytes_of("Axes = VTrack, VEW\n0 0\n")) == "lw_kuper");
  CHECK(detected(test::bytes_of("LWMOX\n1\n")) == "unknown");
  CHECK(detected(test::bytes_of("Axes are nice\n")) == "unknown");
  CHECK(detected({std::byte{0x02}, std::byte{0x84}, std::byte{0x10}, std::byte{0x98}, std::byte{0x24},
                  std::byte{0x01}, std::byte{0x84}, std::byte{0x21}}) == "unknown");
  CHECK(detected(std::vector<std::byte>(64, std::byte{0})) == "unknown");  // zero slots
  CHECK(detected({}) == "unknown");
}

TEST_CASE("registered formats have unique ids and descriptions", "[registry]") {
  const auto formats = registered_formats();
  REQUIRE_FALSE(formats.empty());
  for (const auto& format : formats) {
    CHECK_FALSE(format.description.empty());
    CHECK(find_format(format.id) == &format);
  }
  CHECK(find_format("no_such_format") == nullptr);
}

TEST_CASE("GNTool's 8-byte placeholder .mot files are not GNT (real corpus)", "[registry][real]") {
  const auto shared = test::shared_dir();
  ANIMDEX_SKIP_UNLESS(shared, "../shared/corpus/real not found (set ANIMDEX_SHARED_DIR): skipping the real-corpus check");
  const auto folder = *shared / "corpus/real/gnt-mot/NOT_GNT_placeholders/NicholasMoser__GNTool/src/test/resources/zip/test/files/chr/ank";
  for (const char* name : {"0000.mot", "0001.mot"}) {
    const auto bytes = test::read_bytes(folder / name);
    CHECK(bytes.size() == 8);
    CHECK(detected(bytes) == "unknown");
  }
  // LightWave .mot files are LightWave, whatever their extension.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(*shared / "corpus/real/lightwave")) {
    if (!entry.is_regular_file()) continue;
    INFO(entry.path().string());
    const auto extension = entry.path().extension().string();
    CHECK(detected(test::read_bytes(entry.path())) == (extension == ".env" ? "lw_env" : "lw_mot"));
  }
}
