// Replays every input in tests/regression/ (fuzzer findings and hand-made hostile inputs):
// each must parse or fail with a described error, never crash (the sanitizer suite runs this too),
// and what parses must survive the database's key blob.
#include <catch2/catch.hpp>
#include <filesystem>

#include "formats/gnt_mot/gnt_mot_parser.h"
#include "formats/kh2/kh2_model.h"
#include "formats/kh2/kh2_motion.h"
#include "formats/registry.h"
#include "db/key_blob.h"
#include "model/validate.h"
#include "support/test_support.h"

using namespace animdex;
namespace fs = std::filesystem;

TEST_CASE("regression inputs parse or fail cleanly", "[regression]") {
  const fs::path root = fs::path(ANIMDEX_SOURCE_DIR) / "tests" / "regression";
  REQUIRE(fs::is_directory(root));
  std::size_t replayed = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    INFO(entry.path().string());
    const auto bytes = test::read_bytes(entry.path());
    if (const auto* format = detect_format(bytes, bytes.size())) {
      auto parsed = format->parse(bytes);
      // The offset an error names lies inside the file (fuzzer finding: a J.AC offset outside it).
      if (!parsed.ok()) {
        CHECK_FALSE(parsed.error().expected.empty());
        CHECK(parsed.error().offset <= bytes.size());
      } else {  // stored as the database stores it, every track comes back bit for bit (as fuzz_detect_parse checks)
        for (const auto& animation : parsed.value().animations)
          for (const auto& track : animation.tracks) {
            const auto decoded = model::decode_key_blob(model::encode_key_blob(track.keys, track.splines));
            REQUIRE(decoded);
            CHECK(model::identical(decoded.value().keys, track.keys));
          }
      }
    }
    if (entry.path().parent_path().filename() == "gnt_mot") {
      auto parsed = gnt_mot::parse_mot(bytes);
      if (!parsed.ok()) CHECK_FALSE(parsed.error().expected.empty());
    }
    if (entry.path().parent_path().filename() == "kh2") {  // fuzz_kh2 also reads any input as a bare Motion
      auto motion = kh2::parse_motion(bytes);
      if (!motion.ok()) CHECK_FALSE(motion.error().expected.empty());
      else CHECK(model::validate(kh2::to_model(motion.value())) == std::nullopt);
    }
    ++replayed;
  }
  CHECK(replayed >= 5);
}
